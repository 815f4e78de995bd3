import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import type { Draft, Page } from '../../../api/types';
import { paths } from '../../../lib/slugs';
import { deleteDraft, draftKeyOf, draftQueryKey, useDraft } from '../../drafts/api/drafts';
import { getPage, pageKey, usePage } from '../../pages/api/pages';
import { createPage, getRevisionContent, updatePage } from '../api/editor';
import { bodyOf, emptyFields, fieldsOf, type PageFields } from '../model/fields';
import { hasConflictMarkers, mergeThreeWay } from '../model/merge';
import { useAutosave } from './use-autosave';

interface Base {
  revision: number;
  content: string | null;
}

export interface Conflict {
  theirs: Page;
}

/** What a draft holds besides title and content: the form and the revision it started from. */
interface DraftExtras {
  fields?: PageFields;
  baseRevision?: number;
}

/**
 * One editing session of a page (or of a new page): the form, the revision it is based on,
 * the draft offer, autosave, saving with If-Match and the conflict choices.
 */
export function useEditorSession(slug: string | null) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const key = draftKeyOf(slug);
  const page = usePage(slug ?? '');
  const draft = useDraft(key);
  const [fields, setFields] = useState<PageFields | null>(null);
  const [base, setBase] = useState<Base | null>(null);
  const [offer, setOffer] = useState<Draft | null>(null);
  const [version, setVersion] = useState(0);
  const [resetKey, setResetKey] = useState(0);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const started = useRef(false);

  const load = (next: PageFields, nextBase: Base | null) => {
    setFields(next);
    setBase(nextBase);
    setResetKey((k) => k + 1);
  };

  const resume = (d: Draft) => {
    const extras = d as Draft & DraftExtras;
    const current = page.data;
    const restored = {
      ...(extras.fields ?? (current ? fieldsOf(current) : emptyFields(params.get('slug') ?? ''))),
    };
    restored.title = d.title ?? restored.title;
    restored.content = d.content;
    load(
      restored,
      current ? { revision: extras.baseRevision ?? current.revision, content: null } : null,
    );
    setOffer(null);
    setVersion((v) => v + 1);
  };

  // Start once the page (when editing) and the draft are known.
  useEffect(() => {
    if (started.current || draft.isPending || (slug && page.isPending)) return;
    if (slug && !page.data) return;
    started.current = true;
    const current = page.data;
    const initial = current
      ? fieldsOf(current)
      : emptyFields(params.get('slug') ?? params.get('parent') ?? '');
    if (!current && params.get('parent')) initial.slug = `${params.get('parent')}/`;
    load(initial, current ? { revision: current.revision, content: current.content } : null);
    const saved = draft.data;
    if (saved && (!current || saved.content !== current.content || saved.title !== current.title)) {
      if (params.get('draft') === 'resume') resume(saved);
      else setOffer(saved);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft.isPending, page.isPending, page.data, draft.data, slug]);

  const autosave = useAutosave(
    key,
    () => ({
      title: fields?.title ?? null,
      content: fields?.content ?? '',
      fields: fields ?? undefined,
      baseRevision: base?.revision,
    }),
    version,
    fields !== null && offer === null && !saving,
    () => void queryClient.invalidateQueries({ queryKey: draftQueryKey(key) }),
  );

  const change = (patch: Partial<PageFields>) => {
    setFields((f) => (f ? { ...f, ...patch } : f));
    setVersion((v) => v + 1);
  };

  const discardOffer = async () => {
    await deleteDraft(key);
    queryClient.setQueryData(draftQueryKey(key), null);
    setOffer(null);
  };

  const finish = async (saved: Page) => {
    autosave.markClean(version);
    await autosave.settled();
    await deleteDraft(key);
    queryClient.setQueryData(draftQueryKey(key), null);
    queryClient.setQueryData(pageKey(saved.slug), saved);
    void queryClient.invalidateQueries({ queryKey: ['/api/tree'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/recent'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/tags'] });
    navigate(paths.page(saved.slug));
  };

  /** Saves the form on top of `onRevision` (default: the revision editing started from). */
  const save = async (onRevision?: number) => {
    if (!fields) return;
    if (hasConflictMarkers(fields.content)) {
      setError(
        new Error(
          'The text still holds conflict markers (<<<<<<< mine … >>>>>>> theirs): resolve them first.',
        ),
      );
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const body = bodyOf(fields);
      const saved =
        slug && base
          ? await updatePage(slug, body, onRevision ?? base.revision)
          : await createPage(body);
      setConflict(null);
      await finish(saved);
    } catch (e) {
      if (slug && isProblem(e, 409, 412)) {
        setConflict({
          theirs: await queryClient.fetchQuery({
            queryKey: pageKey(slug),
            queryFn: () => getPage(slug),
            staleTime: 0,
          }),
        });
      } else setError(e);
    } finally {
      setSaving(false);
    }
  };

  const keepMine = () => conflict && save(conflict.theirs.revision);

  const takeTheirs = () => {
    if (!conflict) return;
    load(fieldsOf(conflict.theirs), {
      revision: conflict.theirs.revision,
      content: conflict.theirs.content,
    });
    setVersion((v) => v + 1);
    setConflict(null);
    setNotice(`You are now editing revision ${conflict.theirs.revision}.`);
  };

  const merge = async () => {
    if (!conflict || !fields || !slug || !base) return;
    const theirs = conflict.theirs;
    const baseContent = base.content ?? (await getRevisionContent(slug, base.revision)) ?? '';
    const merged = mergeThreeWay(baseContent, fields.content, theirs.content);
    load(
      { ...fields, content: merged.text },
      { revision: theirs.revision, content: theirs.content },
    );
    setVersion((v) => v + 1);
    setConflict(null);
    setNotice(
      merged.conflicts === 0
        ? 'Both versions merged without overlaps. Check the text, then save.'
        : `Merged: ${merged.conflicts} place${merged.conflicts > 1 ? 's' : ''} where both changed the same lines ${merged.conflicts > 1 ? 'are' : 'is'} marked with <<<<<<< mine / ======= / >>>>>>> theirs. Resolve ${merged.conflicts > 1 ? 'them' : 'it'}, then save.`,
    );
  };

  const fieldErrors = error instanceof ApiProblem ? error : null;

  return {
    slug,
    page,
    fields,
    change,
    resetKey,
    offer,
    resume: () => offer && resume(offer),
    discardOffer,
    autosave,
    save: () => save(),
    saving,
    error,
    fieldErrors,
    conflict,
    keepMine,
    takeTheirs,
    merge,
    notice,
  };
}

export type EditorSession = ReturnType<typeof useEditorSession>;
