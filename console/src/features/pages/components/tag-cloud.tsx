import { Link } from 'react-router';
import type { Tag } from '../../../api/types';
import { paths } from '../../../lib/slugs';

/** Tags as chips linking to their pages, each with its count of visible pages. */
export function TagCloud({ tags, className = 'tag-cloud' }: { tags: Tag[]; className?: string }) {
  return (
    <ul className={className}>
      {tags.map((tag) => (
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
  );
}
