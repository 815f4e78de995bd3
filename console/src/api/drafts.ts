import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import { isProblem } from './problem';
import type { components } from './kb-api';
import type { Draft } from './types';
import { useCursorList } from './use-cursor-list';

export type DraftSummary = components['schemas']['DraftSummary'];

/** The draft key of an existing page, and the one key for a page being created. */
export const draftKeyOf = (slug: string | null) => (slug ? `page:${slug}` : 'new');

export const draftQueryKey = (key: string) => ['/api/drafts/{key}', key] as const;
const draftsKey = ['/api/drafts'] as const;

/** The page a draft key names (`page:<slug>`), '' for a new page, null for another client's key. */
export function slugOfDraftKey(key: string): string | null {
  if (key === 'new') return '';
  return key.startsWith('page:') ? key.slice('page:'.length) : null;
}

/** The person's drafts, most recently saved first. */
export function useDrafts() {
  return useCursorList<DraftSummary>(draftsKey, (cursor) =>
    unwrap(api.GET('/api/drafts', { params: { query: { cursor, limit: 50 } } })),
  );
}

/** The caller's draft under `key`, or null when there is none. */
export async function getDraft(key: string): Promise<Draft | null> {
  try {
    return await unwrap(api.GET('/api/drafts/{key}', { params: { path: { key } } }));
  } catch (error) {
    if (isProblem(error, 404)) return null;
    throw error;
  }
}

export function useDraft(key: string, enabled = true) {
  return useQuery({ queryKey: draftQueryKey(key), queryFn: () => getDraft(key), enabled });
}

export interface DraftBody {
  content: string;
  title: string | null;
  [member: string]: unknown;
}

export function saveDraft(key: string, body: DraftBody): Promise<Draft> {
  return unwrap(
    api.PUT('/api/drafts/{key}', { params: { path: { key } }, body: body as { content: string } }),
  );
}

/**
 * The last save when the person leaves: `keepalive` lets the request finish after the page
 * is gone (a closed tab, a reload).
 */
export function saveDraftOnExit(key: string, body: DraftBody): Promise<unknown> {
  const path = `/api/drafts/${key.split('/').map(encodeURIComponent).join('/')}`;
  return fetch(path, {
    method: 'PUT',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

export async function deleteDraft(key: string): Promise<void> {
  try {
    await unwrap(api.DELETE('/api/drafts/{key}', { params: { path: { key } } }));
  } catch (error) {
    if (!isProblem(error, 404)) throw error;
  }
}

export function useDiscardDraft(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDraft(key),
    onSuccess: () => {
      queryClient.setQueryData(draftQueryKey(key), null);
      return queryClient.invalidateQueries({ queryKey: draftsKey });
    },
  });
}
