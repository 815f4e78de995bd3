import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import type { Page } from '../../../api/types';
import { paths } from '../../../lib/slugs';
import { deleteDraft, draftKeyOf, draftQueryKey, useDraft } from '../../../api/drafts';
import { getPage, pageKey, usePage } from '../../../api/pages';
import {
  asProposed,
  createPage,
  proposeChange,
  updateChangeRequest,
  updatePage,
  useChangeRequestToEdit,
} from '../api/editor';
import { bodyOf } from '../model/fields';
import { hasConflictMarkers, mergeThreeWay } from '../model/merge';
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
 * is kept (an older one is still offered, to bring into the session). `proposeOnly`: no Save,
 * no drafts (a reader, or the proposal of change request `requestId` being edited).
 */
export function useEditorSession(
  slug: string | null,
  live = false,
  proposeOnly = false,
  requestId: number | null = null,
) {
  const queryClient = useQueryClient();
  const key = draftKeyOf(slug);
  const page = usePage(slug ?? '');
  const form = useEditorForm();
  const { fields, base, version } = form;
  // Drafts are kept for editors; someone who only proposes starts from the page each time.
  const draftQuery = useDraft(key, !proposeOnly);
  const drafts = useDraftOffer(
    slug,
    key,
    page,
    proposeOnly ? { isPending: false, data: null } : draftQuery,
    form,
  );
  const [reviewers, setReviewers] = useState('');
  const proposal = useProposalToEdit(slug, requestId, page.data, form, setReviewers);
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
    fields !== null && drafts.offer === null && !saving && !live && !proposeOnly,
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
  const propose = async (beforeLeave?: () => void) => {
    if (!fields) return;
    if (hasConflictMarkers(fields.content)) {
      setError(unresolvedMarkers());
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const target = slug ?? fields.slug;
      const names = reviewers
        .split(/[\s,]+/)
        .map((n) => n.replace(/^@/, ''))
        .filter(Boolean);
      const editing = proposal.request;
      if (requestId !== null && editing && slug && base) {
        // The request's changes as they are, this page's replaced by the edit on its current revision.
        const edited = {
          slug,
          action: 'update' as const,
          title: fields.title,
          content: fields.content,
          baseRevision: base.revision,
        };
        await updateChangeRequest(requestId, {
          title: editing.title,
          description: editing.description,
          reviewers: names,
          changes: editing.changes.map((c) =>
            c.slug === slug && c.action === 'update' ? edited : asProposed(c),
          ),
        });
        void queryClient.invalidateQueries({ queryKey: ['/api/change-requests'] });
        void queryClient.invalidateQueries({ queryKey: ['/api/change-requests/{id}', requestId] });
        beforeLeave?.();
        navigate(paths.changeRequest(requestId));
        return;
      }
      const made = await proposeChange({
        title: fields.summary?.trim() || `Changes to ${fields.title || target}`,
        ...(names.length > 0 ? { reviewers: names } : {}),
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
      if (!proposeOnly) {
        await autosave.settled();
        await deleteDraft(key);
        queryClient.setQueryData(draftQueryKey(key), null);
      }
      void queryClient.invalidateQueries({ queryKey: ['/api/change-requests'] });
      beforeLeave?.();
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
    /** May only propose (a reader): no Save, no drafts, no live session. */
    proposeOnly,
    /** `beforeLeave`: called once the request is made, before the editor closes. */
    propose: (beforeLeave?: () => void) => propose(beforeLeave),
    /** The change request whose proposal is edited (null: a new proposal), and its merge. */
    proposal,
    /** Usernames asked to review a proposal, as typed (commas or spaces between). */
    reviewers,
    setReviewers,
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

/**
 * Editing the proposal of a change request (`?changeRequest=<id>`): once the page is loaded, the
 * form holds the proposed text — merged three ways with the page as it is now when the page
 * moved on since, overlapping edits between conflict markers to resolve — on the page's current
 * revision, and the request's reviewers.
 */
function useProposalToEdit(
  slug: string | null,
  requestId: number | null,
  current: Page | undefined,
  form: ReturnType<typeof useEditorForm>,
  setReviewers: (value: string) => void,
) {
  const request = useChangeRequestToEdit(requestId);
  const applied = useRef(false);
  const [conflicts, setConflicts] = useState(0);
  const { fields } = form;
  useEffect(() => {
    if (applied.current || !request.data || !fields || !current) return;
    applied.current = true;
    setReviewers(request.data.reviewers.join(', '));
    const change = request.data.changes.find((c) => c.slug === slug && c.action === 'update');
    if (!change) return;
    const proposed = change.content ?? change.baseContent ?? current.content;
    const merged =
      change.baseRevision === current.revision || change.baseContent === null
        ? { text: proposed, conflicts: 0 }
        : mergeThreeWay(change.baseContent, proposed, current.content);
    setConflicts(merged.conflicts);
    form.load(
      { ...fields, title: change.title ?? fields.title, content: merged.text },
      { revision: current.revision, content: current.content },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request.data, fields, current]);
  return {
    request: request.data ?? null,
    error: request.error,
    /** Overlapping edits marked in the text. */
    conflicts,
  };
}
