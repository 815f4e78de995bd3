import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { isProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { searchWordsOf, slugOfAddress } from '../../../lib/page-address';
import { paths } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { usePage } from '../../../api/pages';

function NotFound({ address, slug }: { address: string; slug: string | null }) {
  useDocumentTitle('Not found');
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [query, setQuery] = useState(slug ? searchWordsOf(slug) : '');

  const search = (event: FormEvent) => {
    event.preventDefault();
    if (query.trim()) navigate(paths.search(query.trim()));
  };

  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">Not found</h1>
      <p className="screen__lead">
        There is no page or screen at <code>{address}</code>
        {slug ? ', or it is not shared with you' : ''}. Search for what you were looking for:
      </p>
      <form
        className="not-found__search"
        role="search"
        aria-label="Search for a page"
        onSubmit={search}
      >
        <label htmlFor="not-found-query" className="visually-hidden">
          Search pages
        </label>
        <input
          id="not-found-query"
          className="input"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>
      <div className="not-found__actions">
        {slug && canEdit(user) && (
          <Link to={`${paths.newPage()}?slug=${encodeURIComponent(slug)}`} className="button">
            Create this page
          </Link>
        )}
        <Link to={paths.home()} className="button button--quiet">
          Go home
        </Link>
      </div>
    </div>
  );
}

/**
 * Any address the console has no screen for. One that could be a page's slug typed without
 * `/wiki` (`/handbook/index`) opens that page when it exists; anything else says "Not found",
 * offers a search and, to editors, creating the page.
 */
export function NotFoundScreen() {
  const { pathname } = useLocation();
  const slug = slugOfAddress(pathname);
  const page = usePage(slug ?? '');
  if (slug && page.isPending) return <Spinner label="Looking for the page…" />;
  if (slug && page.data) return <Navigate to={paths.page(page.data.slug)} replace />;
  if (page.error && !isProblem(page.error, 404)) return <ProblemMessage error={page.error} />;
  return <NotFound address={decodeURIComponentSafe(pathname)} slug={slug} />;
}

function decodeURIComponentSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export default NotFoundScreen;
