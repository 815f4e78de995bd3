import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import type { Media, Page } from '../../../api/types';
import type { PageBody } from '../model/fields';

/** Creates the page; without an owner named the server makes the creator its owner. */
export function createPage(body: PageBody): Promise<Page> {
  const { owner, ...rest } = body;
  return unwrap(api.POST('/api/pages', { body: owner === null ? rest : body }));
}

/** Saves on top of `baseRevision` (If-Match): 412 when someone saved in between. */
export function updatePage(slug: string, body: PageBody, baseRevision: number): Promise<Page> {
  return unwrap(
    api.PUT('/api/pages/{slug}', {
      params: { path: { slug } },
      body,
      headers: { 'If-Match': `"${baseRevision}"` },
    }),
  );
}

/** Live preview: debounced by the caller, keyed by the text so typing never waits for it. */
export function usePreview(content: string, variables: Record<string, string>, slug: string) {
  return useQuery({
    queryKey: ['/api/preview', content, variables, slug],
    queryFn: ({ signal }) =>
      unwrap(
        api.POST('/api/preview', { body: { content, variables, slug: slug || undefined }, signal }),
      ),
    placeholderData: (previous) => previous,
    staleTime: Infinity,
    retry: false,
  });
}

export function useAssignableGroups() {
  return useQuery({
    queryKey: ['/api/groups'],
    queryFn: () => unwrap(api.GET('/api/groups')),
    staleTime: 5 * 60_000,
  });
}

/** Uploads a pasted or dropped file: images to /api/images, anything else as an attachment. */
export async function uploadFile(file: File): Promise<{ media: Media; image: boolean }> {
  const image = /^image\/(png|jpeg|gif|webp)$/.test(file.type);
  const name = file.name || (image ? 'pasted-image.png' : 'file');
  const options = {
    body: { file },
    bodySerializer: () => {
      const form = new FormData();
      form.append('file', file, name);
      return form;
    },
  };
  const media = await unwrap(
    image ? api.POST('/api/images', options) : api.POST('/api/attachments', options),
  );
  return { media, image };
}

/** The Markdown that shows an uploaded file. */
export function markdownFor(upload: { media: Media; image: boolean }): string {
  const label = upload.media.filename.replace(/[[\]\\]/g, '');
  return upload.image ? `![${label}](${upload.media.url})` : `[${label}](${upload.media.url})`;
}

/** The text of one revision of a page (the base of a three-way merge). */
export async function getRevisionContent(slug: string, revision: number): Promise<string | null> {
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/api/revisions', { params: { query: { slug, cursor, limit: 100 } } }),
    );
    const found = page.items.find((r) => r.revision === revision);
    if (found) {
      const full = await unwrap(
        api.GET('/api/revisions/{id}', { params: { path: { id: found.id } } }),
      );
      return full.content;
    }
    if (page.items.length && page.items[page.items.length - 1].revision < revision) return null;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return null;
}

/** "Propose changes": the edit as a change request instead of a save (docs/review.md). */
export function proposeChange(body: {
  title: string;
  reviewers?: string[];
  changes: {
    slug: string;
    action: 'update' | 'create';
    title?: string;
    content: string;
    baseRevision?: number;
  }[];
}) {
  return unwrap(api.POST('/api/change-requests', { body }));
}

export type ChangeRequest = components['schemas']['ChangeRequestResponse'];
type ProposedChange = components['schemas']['ProposedChangeDto'];

/** The change request whose proposal is being edited (`/edit/<slug>?changeRequest=<id>`). */
export function useChangeRequestToEdit(id: number | null) {
  return useQuery({
    queryKey: ['/api/change-requests/{id}', id],
    enabled: id !== null,
    queryFn: () =>
      unwrap(api.GET('/api/change-requests/{id}', { params: { path: { id: String(id) } } })),
    // Loaded once for the session: a refetch must not reset the text being edited.
    staleTime: Infinity,
  });
}

/** A change of a request as it would be proposed again (PUT takes the whole set). */
export function asProposed(change: ChangeRequest['changes'][number]): ProposedChange {
  const proposed: ProposedChange = { slug: change.slug, action: change.action };
  if (change.content !== null) proposed.content = change.content;
  if (change.title !== null) proposed.title = change.title;
  if (change.baseRevision !== null) proposed.baseRevision = change.baseRevision;
  if (change.to !== null) proposed.to = change.to;
  return proposed;
}

/** A new set of changes for a request (its author): earlier approvals lapse. */
export function updateChangeRequest(id: number, body: components['schemas']['ChangeRequestDto']) {
  return unwrap(
    api.PUT('/api/change-requests/{id}', { params: { path: { id: String(id) } }, body }),
  );
}
