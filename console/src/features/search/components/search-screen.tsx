import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { useSearch } from '../api/search';
import { useDocumentTitle } from '../../../components/use-document-title';

function Results({ q }: { q: string }) {
  const search = useSearch(q);
  if (search.isPending) return <Spinner label="Searching…" />;
  if (search.isError) return <ProblemMessage error={search.error} />;
  if (search.items.length === 0) return <EmptyState>No page matches “{q}”.</EmptyState>;
  return (
    <>
      <ol className="results" aria-label="Search results">
        {search.items.map((hit) => (
          <li key={hit.slug} className="result">
            <Link to={paths.page(hit.slug)} className="result__title">
              {hit.title}
            </Link>
            <div className="result__slug">{hit.slug}</div>
            {/* The API escapes the text and adds only <mark> around the hits. */}
            <p className="result__snippet" dangerouslySetInnerHTML={{ __html: hit.snippet }} />
            <div className="result__meta">
              {hit.tags.map((tag) => (
                <Link key={tag} to={paths.tag(tag)} className="tag-chip tag-chip--small">
                  {tag}
                </Link>
              ))}
              <span>updated {formatRelative(hit.updatedAt)}</span>
            </div>
          </li>
        ))}
      </ol>
      <LoadMore list={search} label="More results" />
    </>
  );
}

export function SearchScreen() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  return (
    <div className="screen screen--narrow">
      <header className="screen__header">
        <h1 className="screen__title">{q ? `Results for “${q}”` : 'Search'}</h1>
      </header>
      {q ? (
        <Results q={q} />
      ) : (
        <EmptyState>Type in the search field above and press Enter.</EmptyState>
      )}
    </div>
  );
}

export default SearchScreen;
