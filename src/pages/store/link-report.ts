import { allOf, placeholders, readQuery, Sql, SqlCondition } from '../../common/database/sql';
import { linkOccurrences } from '../rendering/link-occurrences';
import { Viewer, visibleSql } from './visibility-sql';
import { mediaSql } from '../../media/public-sql';

export interface BrokenLink {
  page: string;
  target: string;
  line: number;
  kind: 'link' | 'image';
}

/**
 * Where a report page resumes: at the page `slug`, after its first `skip` broken links, or
 * (`after`) at the first page past `slug`.
 */
export interface LinkReportPosition {
  slug: string;
  skip: number;
  after?: boolean;
}

const BATCH = 100;
/** At most this many pages are read per report request; the cursor carries on from there. */
const MAX_PAGES_PER_REQUEST = 2000;
const IN_CHUNK = 500;

async function inChunks(
  values: string[],
  select: (chunk: string[]) => Promise<string[]>,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < values.length; i += IN_CHUNK)
    for (const value of await select(values.slice(i, i + IN_CHUNK))) found.add(value);
  return found;
}

/**
 * Broken internal links and missing media in the live pages `viewer` may see (under `prefix`),
 * by page slug then line. A link to a page the viewer cannot see counts as broken, exactly like
 * a missing one: telling them apart would reveal that the page exists. A link to an old slug of
 * a moved page resolves through its redirect, so a move never breaks a link. Reads at most
 * MAX_PAGES_PER_REQUEST pages, so a page of the report may hold fewer than `limit` items and
 * still have a next one. Parses Markdown: runs in a read worker on SQLite, and yields to the
 * event loop between batches elsewhere.
 */
export const brokenLinks = readQuery(
  'pages.brokenLinks',
  async (
    sql: Sql,
    viewer: Viewer,
    prefix: string | null,
    from: LinkReportPosition | null,
    limit: number,
  ): Promise<{ items: BrokenLink[]; next: LinkReportPosition | null }> => {
    const items: BrokenLink[] = [];
    let position = from;
    let scanned = 0;
    for (;;) {
      const where: SqlCondition[] = [visibleSql(viewer, 'p')];
      if (prefix !== null)
        where.push({
          sql: '(p.live_slug = ? OR (p.live_slug >= ? AND p.live_slug < ?))',
          params: [prefix, `${prefix}/`, `${prefix}0`],
        });
      if (position)
        where.push({
          sql: `p.live_slug ${position.after ? '>' : '>='} ?`,
          params: [position.slug],
        });
      const condition = allOf(where);
      const pages = await sql.all<{ slug: string; content: string }>(
        `SELECT p.live_slug AS slug, p.content AS content FROM pages p WHERE ${condition.sql}
         ORDER BY p.live_slug LIMIT ${BATCH}`,
        condition.params,
      );
      if (pages.length === 0) return { items, next: null };

      const occurrences = pages.map((page) => linkOccurrences(page.content, page.slug));
      const slugs = [...new Set(occurrences.flat().flatMap((o) => (o.slug ? [o.slug] : [])))];
      const mediaIds = [
        ...new Set(occurrences.flat().flatMap((o) => (o.mediaId ? [o.mediaId] : []))),
      ];
      const visible = visibleSql(viewer, 'p');
      const liveSlugs = await inChunks(slugs, async (chunk) =>
        (
          await sql.all<{ slug: string }>(
            `SELECT p.live_slug AS slug FROM pages p
             WHERE (${visible.sql}) AND p.live_slug IN (${placeholders(chunk.length)})`,
            [...visible.params, ...chunk],
          )
        ).map((r) => r.slug),
      );
      // An old slug of a moved page the viewer may see resolves (GET answers 308 to the page).
      const redirected = await inChunks(
        slugs.filter((slug) => !liveSlugs.has(slug)),
        async (chunk) =>
          (
            await sql.all<{ slug: string }>(
              `SELECT r.from_slug AS slug FROM page_redirects r JOIN pages p ON p.id = r.page_id
               WHERE (${visible.sql}) AND r.from_slug IN (${placeholders(chunk.length)})`,
              [...visible.params, ...chunk],
            )
          ).map((r) => r.slug),
      );
      for (const slug of redirected) liveSlugs.add(slug);
      const storedMedia = await inChunks(mediaIds, async (chunk) =>
        (await sql.all<{ id: string }>(mediaSql.storedIds(chunk.length), chunk)).map((r) =>
          r.id.toLowerCase(),
        ),
      );

      for (const [i, page] of pages.entries()) {
        const broken = occurrences[i].filter((o) =>
          o.mediaId !== undefined
            ? !storedMedia.has(o.mediaId)
            : o.slug === undefined || !liveSlugs.has(o.slug),
        );
        const skip = position && !position.after && position.slug === page.slug ? position.skip : 0;
        const rest = broken.slice(skip);
        const room = limit - items.length;
        for (const o of rest.slice(0, room))
          items.push({ page: page.slug, target: o.target, line: o.line, kind: o.kind });
        if (rest.length > room) return { items, next: { slug: page.slug, skip: skip + room } };
        scanned++;
        const following = pages[i + 1]?.slug;
        if (items.length === limit || scanned >= MAX_PAGES_PER_REQUEST) {
          if (following) return { items, next: { slug: following, skip: 0 } };
          if (pages.length < BATCH) return { items, next: null };
          return { items, next: { slug: page.slug, skip: 0, after: true } };
        }
      }
      if (pages.length < BATCH) return { items, next: null };
      position = { slug: pages[pages.length - 1].slug, skip: 0, after: true };
      await new Promise((resolve) => setImmediate(resolve));
    }
  },
);
