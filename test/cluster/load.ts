import { createHash } from 'node:crypto';
import { png } from '../support/images';
import { zipSync } from 'fflate';

export interface Outcome {
  op: string;
  status: number;
  /** For a failure: the request, when it was answered, the instance nginx chose, the body. */
  detail?: string;
}

/** What the load wrote and was told succeeded: must all be there afterwards. */
export interface Acknowledged {
  pages: { slug: string; content: string }[];
  media: { url: string; sha256: string }[];
  /** Slugs created by async imports that ended `succeeded`. */
  imported: string[];
}

let serial = 0;

/** A JSON/bytes request through `base` as the token's owner; a network error is status 0. */
export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  init: { json?: unknown; body?: FormData; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown; request: string }> {
  const request = `${method} ${path}`;
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body, request };
  } catch (error) {
    const body = String((error as Error).cause ?? error);
    return { status: 0, headers: new Headers(), body, request };
  }
}

type Answer = Awaited<ReturnType<typeof call>>;

/** A small Markdown ZIP for the load's imports, to go under `imported-<n>/`. */
function importZip(n: number): { zip: Buffer; slugs: string[] } {
  const names = ['one', 'two'];
  const entries = Object.fromEntries(
    names.map((name) => [
      `${name}.md`,
      new TextEncoder().encode(`# Imported ${name} ${n}\n\nBy the cluster load.\n`),
    ]),
  );
  return {
    zip: Buffer.from(zipSync(entries)),
    slugs: names.map((name) => `imported-${n}/${name}`),
  };
}

/**
 * A bounded mixed load through nginx: each worker owns one page and loops over a read, a
 * search, an update with If-Match, a new page and an image upload, until `stop()`.
 */
export function startLoad(
  base: string,
  token: string,
  ownPages: string[],
  ack: Acknowledged,
  readerToken = token,
) {
  const outcomes: Outcome[] = [];
  let running = true;
  const record = (op: string, answer: Answer, expected: number) => {
    const { status } = answer;
    outcomes.push(
      status === expected
        ? { op, status }
        : {
            op,
            status,
            detail: JSON.stringify({
              request: answer.request,
              at: new Date().toISOString(),
              upstream: answer.headers.get('x-kb-upstream'),
              requestId: answer.headers.get('x-request-id'),
              body: answer.body,
            }),
          },
    );
  };
  const worker = async (slug: string) => {
    while (running) {
      const read = await call(base, token, 'GET', `/api/pages/${slug}`);
      record('read', read, 200);
      // The update names the revision just read. After a failed read (recorded above) it is
      // not sent: with an older ETag it would fail with 412 and hide where the failure began.
      const etag = read.status === 200 ? read.headers.get('etag') : null;
      // Another user's search and list: lag-tolerant reads, served by the replica.
      const found = await call(base, readerToken, 'GET', `/api/search?q=cluster`);
      record('search', found, 200);
      const listed = await call(base, readerToken, 'GET', `/api/pages?limit=20`);
      record('list', listed, 200);
      const n = ++serial;
      if (etag) {
        const update = await call(base, token, 'PUT', `/api/pages/${slug}`, {
          json: {
            title: `Page ${slug}`,
            content: `# Page ${slug}\n\nRevision ${n} of the cluster load.`,
          },
          headers: { 'if-match': etag },
        });
        record('update', update, 200);
      }
      const created = { slug: `load-${n}`, content: `# Load ${n}\n\nWritten by the cluster load.` };
      const create = await call(base, token, 'POST', '/api/pages', {
        json: { slug: created.slug, title: `Load ${n}`, content: created.content },
      });
      record('create', create, 201);
      if (create.status === 201) ack.pages.push(created);
      const image = png(8, 8, (x, y) => [n & 0xff, (n >> 8) & 0xff, x * 16 + y]);
      const form = new FormData();
      form.append('file', new Blob([image], { type: 'image/png' }), `load-${n}.png`);
      const upload = await call(base, token, 'POST', '/api/images', { body: form });
      record('upload', upload, 201);
      if (upload.status === 201) {
        ack.media.push({
          url: (upload.body as { url: string }).url,
          sha256: createHash('sha256').update(image).digest('hex'),
        });
      }
    }
  };
  // One async import after another, each followed to its end (a job interrupted by a SIGTERM
  // goes back to the queue and is resumed when its instance is back).
  const importer = async () => {
    while (running) {
      const n = ++serial;
      const { zip, slugs } = importZip(n);
      const form = new FormData();
      form.append('format', 'markdown');
      form.append('prefix', `imported-${n}`);
      form.append('async', 'true');
      form.append('files', new Blob([zip]), 'load.zip');
      const started = await call(base, token, 'POST', '/api/import', { body: form });
      record('import', started, 202);
      if (started.status !== 202) continue;
      const id = (started.body as { id: string }).id;
      for (;;) {
        await new Promise((r) => setTimeout(r, 200));
        const job = await call(base, token, 'GET', `/api/import/jobs/${id}`);
        const state = (job.body as { state?: string }).state ?? '';
        if (job.status !== 200) record('import job', job, 200);
        else if (['queued', 'running'].includes(state)) continue;
        else {
          record('import job', { ...job, status: state === 'succeeded' ? 200 : 500 }, 200);
          if (state === 'succeeded') ack.imported.push(...slugs);
        }
        break;
      }
    }
  };
  const done = Promise.all([...ownPages.map(worker), importer()]);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
      return outcomes;
    },
  };
}
