import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { SearchFacets, SearchSort, useSearch } from '../api/search';
import { useDocumentTitle } from '../../../components/use-document-title';
import { filtersIn, withFilter, withoutFilter } from './search-query';
import { SearchHelp } from './search-help';

/** The search address for a query and an order (relevance is the default, left out). */
function searchPath(q: string, sort: SearchSort): string {
  return `${paths.search(q)}${sort === 'updated' ? '&sort=updated' : ''}`;
}

function Facets({ q, sort, facets }: { q: string; sort: SearchSort; facets: SearchFacets }) {
  const groups: [string, string, { name: string; count: number }[]][] = [
    ['Tags', 'tag', facets.tags],
    ['Folders', 'under', facets.folders],
  ];
  if (groups.every(([, , values]) => values.length === 0)) return null;
  return (
    <aside className="search-facets" aria-label="Refine">
      {groups.map(([heading, filter, values]) =>
        values.length === 0 ? null : (
          <section key={heading} className="search-facets__group">
            <h2 className="search-facets__heading">{heading}</h2>
            <ul className="search-facets__list">
              {values.map((value) => (
                <li key={value.name}>
                  <Link
                    className="search-facets__value"
                    to={searchPath(withFilter(q, filter, value.name), sort)}
                  >
                    <span>{value.name}</span>
                    <span className="search-facets__count">{value.count}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ),
      )}
    </aside>
  );
}

function Results({ q, sort }: { q: string; sort: SearchSort }) {
  const search = useSearch(q, sort);
  if (search.isPending) return <Spinner label="Searching…" />;
  if (search.isError) return <ProblemMessage error={search.error} />;
  const suggestion = search.didYouMean && (
    <p className="search-suggestion">
      Did you mean <Link to={searchPath(search.didYouMean, sort)}>{search.didYouMean}</Link>?
    </p>
  );
  if (search.items.length === 0) {
    return (
      <>
        {suggestion}
        <EmptyState>No page matches “{q}”.</EmptyState>
      </>
    );
  }
  return (
    <div className="search-layout">
      <div className="search-layout__results">
        {suggestion}
        <ol className="results" aria-label="Search results">
          {search.items.map((hit) =>
            hit.attachment ? (
              <li key={`attachment:${hit.attachment.id}`} className="result result--attachment">
                <a href={`/api/attachments/${hit.attachment.id}/content`} className="result__title">
                  {hit.attachment.filename}
                </a>
                <div className="result__slug">
                  <span className="result__kind">Attachment</span> on{' '}
                  {(hit.usedOn ?? [{ slug: hit.slug, title: hit.title }]).map((page, i) => (
                    <span key={page.slug}>
                      {i > 0 && ', '}
                      <Link to={paths.page(page.slug)}>{page.title}</Link>
                    </span>
                  ))}
                </div>
                {/* The API escapes the text and adds only <mark> around the hits. */}
                <p className="result__snippet" dangerouslySetInnerHTML={{ __html: hit.snippet }} />
              </li>
            ) : (
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
            ),
          )}
        </ol>
        <LoadMore list={search} label="More results" />
      </div>
      {search.facets && <Facets q={q} sort={sort} facets={search.facets} />}
    </div>
  );
}

/** The filters in the query as chips: each one removed with its button. */
function FilterChips({ q, sort }: { q: string; sort: SearchSort }) {
  const filters = filtersIn(q);
  if (filters.length === 0) return null;
  return (
    <ul className="search-chips" aria-label="Filters">
      {filters.map((filter) => (
        <li key={filter.text} className="search-chip">
          <span className="search-chip__name">{filter.name}</span>
          <span>{filter.value}</span>
          <Link
            className="search-chip__remove"
            to={searchPath(withoutFilter(q, filter), sort)}
            aria-label={`Remove ${filter.text}`}
          >
            ×
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function SearchScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const q = (params.get('q') ?? '').trim();
  const sort: SearchSort = params.get('sort') === 'updated' ? 'updated' : 'relevance';
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  return (
    <div className="screen search-screen">
      <header className="screen__header search-screen__header">
        <h1 className="screen__title">{q ? `Results for “${q}”` : 'Search'}</h1>
        <div className="search-screen__tools">
          <label className="search-sort">
            <span>Sort</span>
            <select
              className="input input--small"
              value={sort}
              onChange={(e) => navigate(searchPath(q, e.target.value as SearchSort))}
            >
              <option value="relevance">Best match</option>
              <option value="updated">Recently updated</option>
            </select>
          </label>
          <SearchHelp />
        </div>
      </header>
      <FilterChips q={q} sort={sort} />
      {q ? (
        <Results q={q} sort={sort} />
      ) : (
        <EmptyState>Type in the search field above: results follow as you type.</EmptyState>
      )}
    </div>
  );
}

export default SearchScreen;
