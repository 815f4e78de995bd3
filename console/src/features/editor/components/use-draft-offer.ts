import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Draft, Page } from '../../../api/types';
import { deleteDraft, draftQueryKey } from '../../../api/drafts';
import { emptyFields, fieldsOf, type PageFields } from '../model/fields';
import type { EditorForm } from './use-editor-form';

/** What a draft holds besides title and content: the form and the revision it started from. */
interface DraftExtras {
  fields?: PageFields;
  baseRevision?: number;
}

interface Loaded<T> {
  isPending: boolean;
  data: T | undefined | null;
}

/**
 * Starts the form once the page (when editing) and the person's draft are known, and offers
 * the draft when it differs from the page: resumed at once with `?draft=resume`, else it
 * waits for Resume or Discard.
 */
export function useDraftOffer(
  slug: string | null,
  draftKey: string,
  page: Loaded<Page>,
  draft: Loaded<Draft>,
  form: EditorForm,
) {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [offer, setOffer] = useState<Draft | null>(null);
  const started = useRef(false);

  const resume = (d: Draft) => {
    const extras = d as Draft & DraftExtras;
    const current = page.data;
    const restored = {
      ...(extras.fields ?? (current ? fieldsOf(current) : emptyFields(params.get('slug') ?? ''))),
    };
    restored.title = d.title ?? restored.title;
    restored.content = d.content;
    form.replace(
      restored,
      current ? { revision: extras.baseRevision ?? current.revision, content: null } : null,
    );
    setOffer(null);
  };

  useEffect(() => {
    if (started.current || draft.isPending || (slug && page.isPending)) return;
    if (slug && !page.data) return;
    started.current = true;
    const current = page.data;
    const initial = current
      ? fieldsOf(current)
      : emptyFields(params.get('slug') ?? params.get('parent') ?? '');
    if (!current && params.get('parent')) initial.slug = `${params.get('parent')}/`;
    form.load(initial, current ? { revision: current.revision, content: current.content } : null);
    const saved = draft.data;
    if (saved && (!current || saved.content !== current.content || saved.title !== current.title)) {
      if (params.get('draft') === 'resume') resume(saved);
      else setOffer(saved);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft.isPending, page.isPending, page.data, draft.data, slug]);

  const discard = async () => {
    await deleteDraft(draftKey);
    queryClient.setQueryData(draftQueryKey(draftKey), null);
    setOffer(null);
  };

  return { offer, resume: () => offer && resume(offer), discard };
}
