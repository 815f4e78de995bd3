import { Link } from 'react-router';
import type { Page } from '../../../api/types';
import { formatDate, formatDateTime, LIFECYCLE_LABELS } from '../../../lib/format';
import { paths } from '../../../lib/slugs';

export function LifecycleBadge({ lifecycle }: { lifecycle: string }) {
  return (
    <span className={`badge-pill badge-pill--${lifecycle}`}>
      {LIFECYCLE_LABELS[lifecycle] ?? lifecycle}
    </span>
  );
}

export function VerifiedMark() {
  return (
    <span className="verified" title="Verified">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="icon">
        <path d="m5 12.5 4.5 4.5L19 7.5" />
      </svg>
      Verified
    </span>
  );
}

/** The page's facts: owner, review, groups, language, tags, properties, last change. */
export function PageMeta({ page }: { page: Page }) {
  const overdue = page.nextReviewAt !== null && new Date(page.nextReviewAt).getTime() < Date.now();
  const properties = Object.entries(page.properties);
  return (
    <aside className="page-meta" aria-label="Page details">
      <dl className="facts">
        <div className="facts__row">
          <dt>Owner</dt>
          <dd>{page.owner ?? '—'}</dd>
        </div>
        <div className="facts__row">
          <dt>Next review</dt>
          <dd className={overdue ? 'facts__overdue' : undefined}>
            {page.nextReviewAt ? formatDate(page.nextReviewAt) : '—'}
            {overdue && ' (overdue)'}
            {page.reviewIntervalDays ? ` · every ${page.reviewIntervalDays} days` : ''}
          </dd>
        </div>
        <div className="facts__row">
          <dt>Groups</dt>
          <dd>{page.groups.length ? page.groups.join(', ') : 'Everyone signed in'}</dd>
        </div>
        {page.language && (
          <div className="facts__row">
            <dt>Language</dt>
            <dd>{page.language}</dd>
          </div>
        )}
        <div className="facts__row">
          <dt>Updated</dt>
          <dd>
            {formatDateTime(page.updatedAt)}
            {page.updatedBy ? ` by ${page.updatedBy}` : ''} · revision {page.revision}
          </dd>
        </div>
        {page.tags.length > 0 && (
          <div className="facts__row">
            <dt>Tags</dt>
            <dd>
              <ul className="tag-cloud">
                {page.tags.map((tag) => (
                  <li key={tag}>
                    <Link to={paths.tag(tag)} className="tag-chip">
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        {properties.map(([name, value]) => (
          <div className="facts__row" key={name}>
            <dt>{name}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

export function Backlinks({ page }: { page: Page }) {
  if (!page.backlinks.length) return null;
  return (
    <section className="backlinks" aria-labelledby="backlinks-heading">
      <h2 id="backlinks-heading" className="backlinks__title">
        Linked from
      </h2>
      <ul>
        {page.backlinks.map((link) => (
          <li key={link.slug}>
            <Link to={paths.page(link.slug)}>{link.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
