import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../api/types';
import { getPage, pageKey } from '../api/pages';
import { useLiveChange } from '../api/live-events';

const NEWER = new Set(['page.updated', 'page.restored']);

/**
 * On an open page: someone saved a newer revision. The page is not swapped under the reader;
 * "Show" puts the new revision in place.
 */
export function LiveUpdateBanner({ page }: { page: Page }) {
  const change = useLiveChange(page.slug);
  const queryClient = useQueryClient();
  const newer =
    change !== undefined &&
    NEWER.has(change.type) &&
    change.revision !== null &&
    change.revision > page.revision;
  const next = useQuery({
    queryKey: ['live-next', page.slug, change?.revision],
    queryFn: () => getPage(page.slug),
    enabled: newer,
    staleTime: Infinity,
  });
  if (change?.type === 'page.binned' && change.seq > 0) {
    return (
      <div className="banner banner--warning live-banner" role="status">
        This page was just moved to the bin.
      </div>
    );
  }
  if (!newer || !next.data || next.data.revision <= page.revision) return null;
  return (
    <div className="banner live-banner" role="status">
      <span>
        Updated by <strong>{next.data.updatedBy ?? 'someone'}</strong>
      </span>
      <span aria-hidden="true"> — </span>
      <button
        type="button"
        className="button button--small"
        onClick={() => queryClient.setQueryData(pageKey(page.slug), next.data)}
      >
        Show
      </button>
    </div>
  );
}

/** In the editor: a newer revision was saved since editing started; saving will ask to merge. */
export function NewerRevisionWarning({
  slug,
  baseRevision,
}: {
  slug: string;
  baseRevision: number;
}) {
  const change = useLiveChange(slug);
  if (
    !change ||
    !NEWER.has(change.type) ||
    change.revision === null ||
    change.revision <= baseRevision
  )
    return null;
  return (
    <div className="banner banner--warning" role="alert">
      A newer revision ({change.revision}) of this page was saved while you were editing. Saving now
      will show both versions to merge.
    </div>
  );
}
