import { Link, NavLink } from 'react-router';
import { paths } from '../../../lib/slugs';
import { useRecentPages, useTags } from '../api/pages';

function MoreButton({
  show,
  busy,
  onClick,
}: {
  show: boolean;
  busy: boolean;
  onClick: () => void;
}) {
  if (!show) return null;
  return (
    <button type="button" className="sidebar__more" onClick={onClick} disabled={busy}>
      {busy ? 'Loading…' : 'More'}
    </button>
  );
}

export function RecentRegion() {
  const recent = useRecentPages(6);
  return (
    <section className="sidebar__section" aria-labelledby="recent-heading">
      <h2 id="recent-heading" className="sidebar__heading">
        Recent
      </h2>
      {recent.isPending ? (
        <p className="sidebar__status">Loading…</p>
      ) : recent.items.length === 0 ? (
        <p className="sidebar__status">Nothing yet.</p>
      ) : (
        <ul className="sidebar__list">
          {recent.items.map((page) => (
            <li key={page.slug}>
              <NavLink to={paths.page(page.slug)} className="sidebar__link" end>
                {page.icon && <span aria-hidden="true">{page.icon} </span>}
                {page.title}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
      <MoreButton
        show={!!recent.hasNextPage}
        busy={recent.isFetchingNextPage}
        onClick={() => recent.fetchNextPage()}
      />
    </section>
  );
}

export function TagsRegion() {
  const tags = useTags(12);
  return (
    <section className="sidebar__section" aria-labelledby="tags-heading">
      <h2 id="tags-heading" className="sidebar__heading">
        Tags
      </h2>
      {tags.isPending ? (
        <p className="sidebar__status">Loading…</p>
      ) : tags.items.length === 0 ? (
        <p className="sidebar__status">No tags yet.</p>
      ) : (
        <ul className="tag-cloud">
          {tags.items.map((tag) => (
            <li key={tag.name}>
              <Link to={paths.tag(tag.name)} className="tag-chip">
                {tag.name}
                <span className="tag-chip__count" aria-label={`${tag.count} pages`}>
                  {tag.count}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <MoreButton
        show={!!tags.hasNextPage}
        busy={tags.isFetchingNextPage}
        onClick={() => tags.fetchNextPage()}
      />
    </section>
  );
}
