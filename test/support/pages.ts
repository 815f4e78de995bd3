import { createTestApp, TestApp } from './test-app';
import { Client, signedIn } from './users';

/** A page JSON body as the API answers it (loosely typed for tests). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PageJson = Record<string, any>;

/** Minimal valid body for POST /api/pages. */
export function newPage(
  slug: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { slug, title: `Title of ${slug}`, content: `# ${slug}\n\nBody of ${slug}.`, ...extra };
}

/** Creates a page through the API (expects 201) and answers the response body. */
export async function createPage(
  client: Client,
  slug: string,
  extra: Record<string, unknown> = {},
): Promise<PageJson> {
  const res = await client.post('/api/pages').send(newPage(slug, extra));
  if (res.status !== 201)
    throw new Error(`create ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as PageJson;
}

/** Updates with baseRevision read from the current page. */
export async function updatePage(
  client: Client,
  slug: string,
  changes: Record<string, unknown>,
): Promise<PageJson> {
  const current = await client.get(`/api/pages/${slug}`).expect(200);
  const res = await client
    .put(`/api/pages/${slug}`)
    .send({ ...changes, baseRevision: current.body.revision });
  if (res.status !== 200)
    throw new Error(`update ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as PageJson;
}

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** The whole single-page response with defaults for everything not given. */
export function expectedPage(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    slug: expect.any(String),
    title: expect.any(String),
    content: expect.any(String),
    icon: null,
    language: null,
    tags: [],
    lifecycle: 'published',
    owner: null,
    reviewIntervalDays: null,
    nextReviewAt: null,
    groups: [],
    deprecatedTarget: null,
    properties: {},
    variables: {},
    verified: false,
    revision: 1,
    createdAt: ISO,
    updatedAt: ISO,
    updatedBy: expect.any(String),
    html: expect.any(String),
    backlinks: [],
    ...fields,
  };
}

/** A list item of /api/pages and /api/recent. */
export function expectedSummary(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    slug: expect.any(String),
    title: expect.any(String),
    icon: null,
    language: null,
    tags: [],
    lifecycle: 'published',
    owner: null,
    groups: [],
    verified: false,
    revision: 1,
    updatedAt: ISO,
    updatedBy: expect.any(String),
    ...fields,
  };
}

export const ISO_DATE = ISO;

/** Follows nextCursor until the end; answers every item. */
export async function allItems(client: Client, path: string, limit = 100): Promise<PageJson[]> {
  const items: PageJson[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await client.get(url).expect(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

export interface PagesTestContext {
  t: TestApp;
  admin: Client;
  editor: Client;
  reader: Client;
}

/**
 * Registers the usual hooks of a pages spec: one app per file, an empty database before each
 * test with a fresh admin, editor and reader (no groups). Read the members inside tests.
 */
export function usePagesApp(): PagesTestContext {
  const context = {} as PagesTestContext;
  beforeAll(async () => {
    context.t = await createTestApp();
  });
  afterAll(() => context.t.close());
  beforeEach(async () => {
    await context.t.reset();
    context.admin = await signedIn(context.t, 'admin');
    context.editor = await signedIn(context.t, 'editor');
    context.reader = await signedIn(context.t, 'reader');
  });
  return context;
}

/**
 * Writes `count` live pages `<folder>/p0000`… straight into the tables (one transaction; the
 * API would take most of a test's time for a thousand pages). Each links to the next by a
 * relative link; no tags, groups or search documents.
 */
export async function insertPagesDirectly(
  t: TestApp,
  folder: string,
  count: number,
): Promise<void> {
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await t.dataSource.transaction(async (m) => {
    for (let i = 0; i < count; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const slug = `${folder}/p${String(i).padStart(4, '0')}`;
      await m.query(
        'INSERT INTO pages (id, slug, live_slug, title, content, html_site_version, tags, group_names, ' +
          'lifecycle, properties, variables, verified, revision, created_at, updated_at) ' +
          'VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 0, 1, ?, ?)',
        [
          id,
          slug,
          slug,
          `P ${i}`,
          `Page ${i} [next](p${i + 1})`,
          '[]',
          '[]',
          'published',
          '{}',
          '{}',
          now,
          now,
        ],
      );
    }
  });
}
