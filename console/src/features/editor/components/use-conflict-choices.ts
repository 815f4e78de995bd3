import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Page } from '../../../api/types';
import { getPage, pageKey } from '../../../api/pages';
import { getRevisionContent } from '../api/editor';
import { fieldsOf } from '../model/fields';
import { mergeThreeWay } from '../model/merge';
import type { EditorForm } from './use-editor-form';

export interface Conflict {
  theirs: Page;
}

/** What the person is told after a merge: clean, or how many places are marked. */
function mergeNotice(conflicts: number): string {
  if (conflicts === 0) return 'Both versions merged without overlaps. Check the text, then save.';
  const many = conflicts > 1;
  return `Merged: ${conflicts} place${many ? 's' : ''} where both changed the same lines ${many ? 'are' : 'is'} marked with <<<<<<< mine / ======= / >>>>>>> theirs. Resolve ${many ? 'them' : 'it'}, then save.`;
}

/**
 * A save refused because someone saved the page meanwhile (409/412): their revision, and the
 * choices that do not need another save: take theirs, or merge both into the form.
 */
export function useConflictChoices(slug: string | null, form: EditorForm) {
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** Reads their revision (never from the cache) and shows the choices. */
  const open = async (conflictSlug: string) => {
    const theirs = await queryClient.fetchQuery({
      queryKey: pageKey(conflictSlug),
      queryFn: () => getPage(conflictSlug),
      staleTime: 0,
    });
    setConflict({ theirs });
  };

  const takeTheirs = () => {
    if (!conflict) return;
    const { theirs } = conflict;
    form.replace(fieldsOf(theirs), { revision: theirs.revision, content: theirs.content });
    setConflict(null);
    setNotice(`You are now editing revision ${theirs.revision}.`);
  };

  const merge = async () => {
    const { fields, base } = form;
    if (!conflict || !fields || !slug || !base) return;
    const { theirs } = conflict;
    const baseContent = base.content ?? (await getRevisionContent(slug, base.revision)) ?? '';
    const merged = mergeThreeWay(baseContent, fields.content, theirs.content);
    form.replace(
      { ...fields, content: merged.text },
      { revision: theirs.revision, content: theirs.content },
    );
    setConflict(null);
    setNotice(mergeNotice(merged.conflicts));
  };

  return { conflict, open, close: () => setConflict(null), takeTheirs, merge, notice };
}
