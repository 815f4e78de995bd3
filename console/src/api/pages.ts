import { useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapFile } from './client';
import { useCursorList } from './use-cursor-list';
import type { Page, PageSummary, Tag, TreeNode } from './types';

const PAGE_SIZE = 20;

export const pageKey = (slug: string) => ['/api/pages/{slug}', slug] as const;

export function getPage(slug: string): Promise<Page> {
  return unwrap(api.GET('/api/pages/{slug}', { params: { path: { slug } } }));
}

export function usePage(slug: string) {
  return useQuery({ queryKey: pageKey(slug), queryFn: () => getPage(slug), enabled: slug !== '' });
}

export function useRecentPages(limit = 8) {
  return useCursorList<PageSummary>(['/api/recent', limit], (cursor) =>
    unwrap(api.GET('/api/recent', { params: { query: { limit: limit, cursor } } })),
  );
}

export function usePagesByTag(tag: string) {
  return useCursorList<PageSummary>(['/api/pages', { tag }], (cursor) =>
    unwrap(api.GET('/api/pages', { params: { query: { tag, cursor, limit: PAGE_SIZE } } })),
  );
}

export function useTags(limit = 12) {
  return useCursorList<Tag>(['/api/tags', limit], (cursor) =>
    unwrap(api.GET('/api/tags', { params: { query: { limit: limit, cursor } } })),
  );
}

/** One level of the page tree; a branch's level is loaded when the branch is first opened. */
export function useTreeLevel(parent: string | undefined) {
  return useCursorList<TreeNode>(['/api/tree', parent ?? ''], (cursor) =>
    unwrap(api.GET('/api/tree', { params: { query: { parent, cursor, limit: 50 } } })),
  );
}

export function exportPage(slug: string, format: 'markdown' | 'zip') {
  return unwrapFile(
    api.GET('/api/export/pages/{slug}', {
      params: { path: { slug }, query: { format } },
      parseAs: 'blob',
    }),
    `${slug.split('/').pop()}.${format === 'zip' ? 'zip' : 'md'}`,
  );
}

/** The page as a PDF with its saved variable values. */
export function exportPdf(slug: string) {
  return unwrapFile(
    api.GET('/export/pdf/{slug}', { params: { path: { slug } }, parseAs: 'blob' }),
    `${slug.split('/').pop()}.pdf`,
  );
}

/** How many people are editing the page in a live session (the page view's "N editing"). */
export function useEditingCount(slug: string) {
  return useQuery({
    queryKey: ['/api/collab', slug],
    queryFn: () => unwrap(api.GET('/api/collab', { params: { query: { slug } } })),
    refetchInterval: 10_000,
    select: (session) => session.editing,
  });
}

/** Every visible page and the links between them (the graph screen, the export's picker). */
export function useGraph() {
  return useQuery({ queryKey: ['/api/graph'], queryFn: () => unwrap(api.GET('/api/graph')) });
}
