import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { LoadMore, type PagedList } from '../../../components/load-more';
import { paths } from '../../../lib/slugs';
import { useRecentPages, useTags } from '../../../api/pages';
import { TagCloud } from './tag-cloud';

interface SectionProps {
  id: string;
  title: string;
  list: PagedList & { isPending: boolean; items: unknown[] };
  empty: string;
  children: ReactNode;
}

/** A sidebar region named by its heading, with its states and its "More" (next cursor). */
function SidebarSection({ id, title, list, empty, children }: SectionProps) {
  return (
    <section className="sidebar__section" aria-labelledby={id}>
      <h2 id={id} className="sidebar__heading">
        {title}
      </h2>
      {list.isPending ? (
        <p className="sidebar__status">Loading…</p>
      ) : list.items.length === 0 ? (
        <p className="sidebar__status">{empty}</p>
      ) : (
        children
      )}
      <LoadMore list={list} label="More" className="sidebar__more" />
    </section>
  );
}

export function RecentRegion() {
  const recent = useRecentPages(6);
  return (
    <SidebarSection id="recent-heading" title="Recent" list={recent} empty="Nothing yet.">
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
    </SidebarSection>
  );
}

export function TagsRegion() {
  const tags = useTags(12);
  return (
    <SidebarSection id="tags-heading" title="Tags" list={tags} empty="No tags yet.">
      <TagCloud tags={tags.items} />
    </SidebarSection>
  );
}
