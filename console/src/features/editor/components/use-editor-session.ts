import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import type { Page } from '../../../api/types';
import { paths } from '../../../lib/slugs';
import { deleteDraft, draftKeyOf, draftQueryKey, useDraft } from '../../../api/drafts';
import { getPage, pageKey, usePage } from '../../../api/pages';
import { createPage, proposeChange, updatePage } from '../api/editor';
import { bodyOf } from '../model/fields';
import { hasConflictMarkers } from '../model/merge';
import { useAutosave } from './use-autosave';
import { useConflictChoices } from './use-conflict-choices';
import { useDraftOffer } from './use-draft-offer';
import { useEditorForm } from './use-editor-form';

export type { Conflict } from './use-conflict-choices';

const unresolvedMarkers = () =>
  new Error(
    'The text still holds conflict markers (<<<<<<< mine … >>>>>>> theirs): resolve them first.',
  );

/** After a save: the draft is gone, the page and the lists showing it are fresh, and it opens. */
function useLeaveSaved(draftKey: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (saved: Page) => {
    await deleteDraft(draftKey);
    queryClient.setQueryData(draftQueryKey(draftKey), null);
    queryClient.setQueryData(pageKey(saved.slug), saved);
    void queryClient.invalidateQueries({ queryKey: ['/api/tree'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/recent'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/tags'] });
    navigate(paths.page(saved.slug));
  };
}

/**
 * One editing session of a page (or of a new page): the form, the revision it is based on,
 * the draft offer, autosave, saving with If-Match and the conflict choices. `live`: the text
 * is a live session's shared document, stored by kb as it is typed, so no private draft of it
 * is kept (an older one is still offered, to bring into the session).
 */
export function useEditorSession(slug: string | null, live = false) {
  const queryClient = useQueryClient();
  const key = draftKeyOf(slug);
  const page = usePage(slug ?? '');
  const form = useEditorForm();
  const { fields, base, version } = form;
  const drafts = useDraftOffer(slug, key, page, useDraft(key), form);
  const conflicts = useConflictChoices(slug, form);
  const leave = useLeaveSaved(key);
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const autosave = useAutosave(
    key,
    () => ({
      title: fields?.title ?? null,
      content: fields?.content ?? '',
      // The text once (as `content`), not twice: a draft must fit a page as large as a page
      // may be (resuming takes the text from `content`).
      fields: fields ? { ...fields, content: undefined } : undefined,
      baseRevision: base?.revision,
    }),
    version,
    fields !== null && drafts.offer === null && !saving && !live,
    () => void queryClient.invalidateQueries({ queryKey: draftQueryKey(key) }),
  );

  /** Saves the form on top of `onRevision` (default: the revision editing started from). */
  const save = async (onRevision?: number) => {
    if (!fields) return;
    if (hasConflictMarkers(fields.content)) {
      setError(unresolvedMarkers());
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
      conflicts.close();
      autosave.markClean(version);
      await autosave.settled();
      await leave(saved);
    } catch (e) {
      // A protected path: the message says so, and "Propose changes" is the way on.
      const protectedPath = e instanceof ApiProblem && e.code === 'change_request_required';
      if (slug && isProblem(e, 409, 412) && !protectedPath) await conflicts.open(slug);
      else setError(e);
    } finally {
      setSaving(false);
    }
  };

  /** Proposes the form as a change request (for review) instead of saving it, and opens it. */
  const propose = async () => {
    if (!fields) return;
    if (hasConflictMarkers(fields.content)) {
      setError(unresolvedMarkers());
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const target = slug ?? fields.slug;
      const made = await proposeChange({
        title: fields.summary?.trim() || `Changes to ${fields.title || target}`,
        changes: [
          slug && base
            ? {
                slug,
                action: 'update',
                title: fields.title,
                content: fields.content,
                baseRevision: base.revision,
              }
            : { slug: target, action: 'create', title: fields.title, content: fields.content },
        ],
      });
      autosave.markClean(version);
      await autosave.settled();
      await deleteDraft(key);
      queryClient.setQueryData(draftQueryKey(key), null);
      void queryClient.invalidateQueries({ queryKey: ['/api/change-requests'] });
      navigate(paths.changeRequest(made.id));
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  return {
    slug,
    page,
    propose: () => propose(),
    fields,
    /** The revision the form was loaded from (saves are made on top of it). */
    baseRevision: base?.revision,
    change: form.change,
    resetKey: form.resetKey,
    offer: drafts.offer,
    resume: drafts.resume,
    discardOffer: drafts.discard,
    autosave,
    save: () => save(),
    /**
     * In a live session the shared text holds every change (an API write arrives in it as a
     * diff): Save goes on top of the page's current revision, not the one editing started from.
     */
    saveLive: async () => {
      if (slug) await save((await getPage(slug)).revision);
    },
    saving,
    error,
    fieldErrors: error instanceof ApiProblem ? error : null,
    conflict: conflicts.conflict,
    keepMine: () => conflicts.conflict && save(conflicts.conflict.theirs.revision),
    takeTheirs: conflicts.takeTheirs,
    merge: conflicts.merge,
    notice: conflicts.notice,
  };
}

export type EditorSession = ReturnType<typeof useEditorSession>;
