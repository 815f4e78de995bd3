import type { Viewer } from './store/visibility-sql';
import type { PagesRepository } from './store/pages.repository';

/**
 * A page's deprecated target as `viewer` may learn it: the slug when it names a live page they
 * may see, otherwise null (never reveal that a page they cannot see exists). Page reads and
 * revision reads answer it through this one function.
 */
export async function visibleDeprecatedTarget(
  pages: PagesRepository,
  target: string | null,
  viewer: Viewer,
): Promise<string | null> {
  if (target === null) return null;
  const visible = await pages.visibleLiveSlugs(viewer, [target]);
  return visible.includes(target) ? target : null;
}
