import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { png } from '../support/images';
import { startKb, RunningKb } from '../support/kb-process';
import { createTestDatabase } from '../support/mysql-databases';
import { startS3Server, S3TestServer } from '../support/s3-server';
import { eventually } from '../support/eventually';
import { DB_TYPE } from '../support/test-app';
import { sha256 } from './media-support';
import { zip } from './import-helpers';

const PASSWORD = 'sweep-admin-password';

/** `n` distinct small PNGs, each named by its index. */
function images(n: number, seed: number): Buffer[] {
  return Array.from({ length: n }, (_, i) =>
    png(2, 2, (x, y) => [(i >> 8) & 0xff, i & 0xff, (seed * 16 + x * 2 + y) & 0xff]),
  );
}

/** A Markdown ZIP of pages, each showing `perPage` of the images. */
function importZip(pictures: Buffer[], perPage: number, folder: string): Buffer {
  const files: Record<string, Uint8Array | string> = {};
  for (let page = 0; page * perPage < pictures.length; page += 1) {
    const lines: string[] = [`# Page ${page}`, ''];
    for (let i = page * perPage; i < Math.min(pictures.length, (page + 1) * perPage); i += 1) {
      files[`${folder}/img/${i}.png`] = pictures[i];
      lines.push(`![image ${i}](img/${i}.png)`);
    }
    files[`${folder}/page-${page}.md`] = lines.join('\n') + '\n';
  }
  return zip(files);
}

/**
 * Issue 9, item 10, with a real kb process: kill -9 in the middle of an import leaves stored
 * media no row references and the upload's temp folder; the next start sweeps both, and media
 * with rows (an upload, a finished import swept around while it ran) stay whole.
 */
describe.each(['local', 's3'] as const)(
  'media sweep after kill -9 during an import (%s store)',
  (store) => {
    let dataDir: string;
    let kb: RunningKb | undefined;
    let database: { url: string; drop(): Promise<void> } | undefined;
    let s3: S3TestServer | undefined;
    let env: Record<string, string>;

    beforeEach(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'kb-sweep-'));
      if (DB_TYPE === 'mysql') database = await createTestDatabase();
      if (store === 's3') s3 = await startS3Server();
      env = {
        KB_DATA_DIR: dataDir,
        PASSWORD_HASH_COST: 'fast',
        KB_ADMIN_PASSWORD: PASSWORD,
        // Sweep often and with a short grace, so a sweep runs beside every import below.
        MEDIA_SWEEP_GRACE_SECONDS: '1',
        MEDIA_SWEEP_INTERVAL_SECONDS: '1',
        IMPORT_JOB_LEASE_SECONDS: '6',
        RATE_LIMIT_IMPORT: '1000/60s',
        ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
        ...(s3?.env ?? {}),
      };
    });
    afterEach(async () => {
      await kb?.signal('SIGKILL');
      kb = undefined;
      await database?.drop();
      database = undefined;
      await s3?.close();
      s3 = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function stored(): Promise<string[]> {
      if (s3) return (await s3.keys()).map((key) => key.slice(6)).sort();
      const root = join(dataDir, 'media');
      const out: string[] = [];
      const walk = (dir: string, depth: number) => {
        let names: string[] = [];
        try {
          names = readdirSync(dir);
        } catch {
          return;
        }
        for (const name of names) {
          if (depth < 2) walk(join(dir, name), depth + 1);
          else out.push(name);
        }
      };
      walk(root, 0);
      return out.sort();
    }

    function temp(): string[] {
      try {
        return readdirSync(join(dataDir, 'tmp'));
      } catch {
        return [];
      }
    }

    async function api(
      token: string,
      path: string,
      init: { method?: string; body?: FormData | string } = {},
    ): Promise<Response> {
      return fetch(`${kb!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        body: init.body,
      });
    }

    async function adminToken(): Promise<string> {
      const login = await fetch(`${kb!.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie()[0].split(';')[0];
      const res = await fetch(`${kb!.url}/api/tokens`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ name: 'sweep' }),
      });
      return ((await res.json()) as { token: string }).token;
    }

    async function startImport(token: string, data: Buffer, prefix: string): Promise<string> {
      const form = new FormData();
      form.append('format', 'markdown');
      form.append('async', 'true');
      form.append('prefix', prefix);
      form.append('files', new Blob([data]), 'docs.zip');
      const res = await api(token, '/api/import', { method: 'POST', body: form });
      expect(res.status).toBe(202);
      return ((await res.json()) as { id: string }).id;
    }

    async function job(token: string, id: string): Promise<{ state: string }> {
      return (await (await api(token, `/api/import/jobs/${id}`)).json()) as { state: string };
    }

    /** The sha256 of every media row, with the bytes each must still serve. */
    async function mediaRows(token: string): Promise<{ sha256: string; url: string }[]> {
      const rows: { sha256: string; url: string }[] = [];
      for (const kind of ['images', 'attachments']) {
        let cursor: string | null = null;
        do {
          const res = await api(
            token,
            `/api/${kind}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          );
          const page = (await res.json()) as {
            items: { sha256: string; url: string }[];
            nextCursor: string | null;
          };
          rows.push(...page.items);
          cursor = page.nextCursor;
        } while (cursor);
      }
      return rows;
    }

    async function expectWhole(token: string, rows: { sha256: string; url: string }[]) {
      for (const row of rows) {
        const res = await api(token, row.url);
        expect({ url: row.url, status: res.status }).toEqual({ url: row.url, status: 200 });
        expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(row.sha256);
      }
    }

    it('sweeps what the killed import left at the next start; media with rows stay whole', async () => {
      kb = await startKb(env);
      let token = await adminToken();

      // A referenced upload.
      const form = new FormData();
      form.append('file', new Blob([png(5, 5)]), 'kept.png');
      const uploaded = (await (
        await api(token, '/api/images', { method: 'POST', body: form })
      ).json()) as { url: string };
      const page = await api(token, '/api/pages', {
        method: 'POST',
        body: JSON.stringify({ slug: 'kept', title: 'Kept', content: `![kept](${uploaded.url})` }),
      });
      expect(page.status).toBe(201);

      // An import that finishes while sweeps run every second with a one-second grace: what it
      // stores while running is held back, so every row it commits has its bytes.
      const first = await startImport(token, importZip(images(120, 1), 10, 'docs'), 'first');
      await eventually(
        async () => expect((await job(token, first)).state).toBe('succeeded'),
        120_000,
      );
      const rows = await mediaRows(token);
      expect(rows).toHaveLength(121);
      await expectWhole(token, rows);
      const known = [...new Set(rows.map((r) => r.sha256))].sort();
      await eventually(async () => expect(await stored()).toEqual(known), 30_000);

      // An import killed in the middle: its transaction never commits.
      const killed = await startImport(token, importZip(images(3000, 2), 10, 'docs'), 'killed');
      await eventually(async () => {
        expect((await stored()).length).toBeGreaterThan(known.length + 5);
      }, 120_000);
      expect(await kb.signal('SIGKILL')).toBe('SIGKILL');
      kb = undefined;
      const left = await stored();
      expect(left.length).toBeGreaterThan(known.length);
      expect(temp().some((name) => name.startsWith('import-'))).toBe(true);

      kb = await startKb(env);
      token = await adminToken();
      // The dead job is failed once its lease runs out; then its media and upload go.
      await eventually(async () => {
        expect((await job(token, killed)).state).toBe('failed');
        expect(await stored()).toEqual(known);
        expect(temp()).toEqual([]);
      }, 120_000);
      const after = await mediaRows(token);
      expect(after.map((r) => r.sha256).sort()).toEqual(rows.map((r) => r.sha256).sort());
      await expectWhole(token, after);
    }, 600_000);
  },
);
