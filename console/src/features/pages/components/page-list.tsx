import { Link } from 'react-router';
import type { PageSummary } from '../../../api/types';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { LifecycleBadge } from './page-meta';

/** Pages as cards: title, slug, last change, lifecycle when not published. */
export function PageList({ pages, label }: { pages: PageSummary[]; label: string }) {
  return (
    <ul className="page-list" aria-label={label}>
      {pages.map((page) => (
        <li key={page.slug} className="page-list__item">
          <Link to={paths.page(page.slug)} className="page-list__title">
            {page.icon && <span aria-hidden="true">{page.icon} </span>}
            {page.title}
          </Link>
          <span className="page-list__slug">{page.slug}</span>
          <span className="page-list__meta">
            {page.lifecycle !== 'published' && <LifecycleBadge lifecycle={page.lifecycle} />}
            updated {formatRelative(page.updatedAt)}
            {page.updatedBy ? ` by ${page.updatedBy}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
