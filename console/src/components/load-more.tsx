/** What an infinite query (a list paged with the API's cursors) offers for the next page. */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface LoadMoreProps {
  list: PagedList;
  label?: string;
  className?: string;
}

/** Fetches the next page of a list with the API's cursor; absent on the last page. */
export function LoadMore({
  list,
  label = 'Load more',
  className = 'button button--quiet load-more',
}: LoadMoreProps) {
  if (!list.hasNextPage) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => void list.fetchNextPage()}
      disabled={list.isFetchingNextPage}
    >
      {list.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
