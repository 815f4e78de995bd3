import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync, Zippable } from 'fflate';
import type request from 'supertest';
import { createTestApp, TestApp } from './test-app';
import { Client, signedIn } from './users';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'import');

/** Every file under a fixture folder, by path relative to it. */
export function readTree(dir: string): Record<string, Buffer> {
  const root = join(FIXTURES, dir);
  const out: Record<string, Buffer> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path).split('\\').join('/')] = readFileSync(path);
    }
  };
  walk(root);
  return out;
}

export function zip(files: Record<string, Uint8Array | string>, prefix = ''): Buffer {
  const entries: Zippable = {};
  for (const [path, data] of Object.entries(files))
    entries[prefix + path] = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return Buffer.from(zipSync(entries));
}

export function fixture(path: string): Buffer {
  return readFileSync(join(FIXTURES, path));
}

export interface ImportRequest {
  format?: string;
  files: { name: string; data: Buffer | string }[];
  prefix?: string;
  dryRun?: boolean | string;
  skipInvalid?: boolean | string;
  /** Further form fields (`cleanConfluence`, `includeBlogPosts`, `jiraBaseUrl`…). */
  fields?: Record<string, string>;
}

/** POST /api/import as multipart, the way a browser form or `curl -F` sends it. */
export function postImport(client: Client, body: ImportRequest): request.Test {
  const test = client.post('/api/import');
  if (body.format !== undefined) test.field('format', body.format);
  if (body.prefix !== undefined) test.field('prefix', body.prefix);
  if (body.dryRun !== undefined) test.field('dryRun', String(body.dryRun));
  if (body.skipInvalid !== undefined) test.field('skipInvalid', String(body.skipInvalid));
  for (const [name, value] of Object.entries(body.fields ?? {})) test.field(name, value);
  for (const file of body.files)
    test.attach(
      'files',
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
      file.name,
    );
  return test;
}

export async function count(
  t: TestApp,
  table: 'pages' | 'media' | 'page_revisions',
): Promise<number> {
  const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
}

/** The stored page row (raw columns) by live slug. */
export async function pageRow(
  t: TestApp,
  slug: string,
): Promise<{ title: string; content: string; revision: number; verified: boolean } | undefined> {
  const rows = await t.dataSource.query(
    t.dataSource.options.type === 'mysql'
      ? 'SELECT title, content, revision, verified FROM pages WHERE live_slug = ?'
      : 'SELECT title, content, revision, verified FROM pages WHERE live_slug = ?',
    [slug],
  );
  if (rows.length === 0) return undefined;
  return {
    title: rows[0].title,
    content: rows[0].content,
    revision: Number(rows[0].revision),
    verified: Boolean(Number(rows[0].verified)),
  };
}

export const MEDIA_URL = /^\/api\/(images|attachments)\/[0-9a-f-]{36}\/content$/;

/**
 * One app per spec file, reset before each test with a signed-in administrator: read
 * `ctx.t` and `ctx.admin` inside the tests.
 */
export function useImportApp(): { t: TestApp; admin: Client } {
  const ctx = {} as { t: TestApp; admin: Client };
  beforeAll(async () => {
    ctx.t = await createTestApp();
  });
  afterAll(() => ctx.t?.close());
  beforeEach(async () => {
    await ctx.t.reset();
    ctx.admin = await signedIn(ctx.t, 'admin');
  });
  return ctx;
}
