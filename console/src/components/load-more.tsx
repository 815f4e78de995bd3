interface LoadMoreProps {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  label?: string;
}

/** Fetches the next page of a list with the API's cursor. */
export function LoadMore({ hasMore, loading, onLoad, label = 'Load more' }: LoadMoreProps) {
  if (!hasMore) return null;
  return (
    <button
      type="button"
      className="button button--quiet load-more"
      onClick={onLoad}
      disabled={loading}
    >
      {loading ? 'Loading…' : label}
    </button>
  );
}
