import { useState } from 'react';
import type { PageFields } from '../model/fields';

/** The revision the form is based on; `content` is null until it is needed for a merge. */
export interface Base {
  revision: number;
  content: string | null;
}

/**
 * The editor's form: the page fields, the revision they are based on, a `version` that counts
 * changes (autosave watches it) and a `resetKey` that remounts the editors when the form is
 * replaced from outside (a draft, their revision, a merge).
 */
export function useEditorForm() {
  const [fields, setFields] = useState<PageFields | null>(null);
  const [base, setBase] = useState<Base | null>(null);
  const [version, setVersion] = useState(0);
  const [resetKey, setResetKey] = useState(0);

  /** Starts the form afresh: nothing new to autosave. */
  const load = (next: PageFields, nextBase: Base | null) => {
    setFields(next);
    setBase(nextBase);
    setResetKey((k) => k + 1);
  };

  /** Replaces the form with text the person has not saved yet: autosave keeps it. */
  const replace = (next: PageFields, nextBase: Base | null) => {
    load(next, nextBase);
    setVersion((v) => v + 1);
  };

  /** A change typed in the form. */
  const change = (patch: Partial<PageFields>) => {
    setFields((f) => (f ? { ...f, ...patch } : f));
    setVersion((v) => v + 1);
  };

  return { fields, base, version, resetKey, load, replace, change };
}

export type EditorForm = ReturnType<typeof useEditorForm>;
