import { createHash } from 'node:crypto';
import { png } from '../support/images';

export interface Outcome {
  op: string;
  status: number;
  detail?: string;
}

/** What the load wrote and was told succeeded: must all be there afterwards. */
export interface Acknowledged {
  pages: { slug: string; content: string }[];
  media: { url: string; sha256: string }[];
}

let serial = 0;

/** A JSON/bytes request through `base` as the token's owner; a network error is status 0. */
export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  init: { json?: unknown; body?: FormData; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
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
    return { status: res.status, headers: res.headers, body };
  } catch (error) {
    return { status: 0, headers: new Headers(), body: String((error as Error).cause ?? error) };
  }
}

/**
 * A bounded mixed load through nginx: each worker owns one page and loops over a read, a
 * search, an update with If-Match, a new page and an image upload, until `stop()`.
 */
export function startLoad(base: string, token: string, ownPages: string[], ack: Acknowledged) {
  const outcomes: Outcome[] = [];
  let running = true;
  const record = (op: string, status: number, expected: number, body: unknown) => {
    outcomes.push(
      status === expected ? { op, status } : { op, status, detail: JSON.stringify(body) },
    );
  };
  const worker = async (slug: string) => {
    let etag = '';
    while (running) {
      const read = await call(base, token, 'GET', `/api/pages/${slug}`);
      record('read', read.status, 200, read.body);
      etag = read.headers.get('etag') ?? etag;
      const found = await call(base, token, 'GET', `/api/search?q=cluster`);
      record('search', found.status, 200, found.body);
      const n = ++serial;
      const update = await call(base, token, 'PUT', `/api/pages/${slug}`, {
        json: {
          title: `Page ${slug}`,
          content: `# Page ${slug}\n\nRevision ${n} of the cluster load.`,
        },
        headers: { 'if-match': etag },
      });
      record('update', update.status, 200, update.body);
      const created = { slug: `load-${n}`, content: `# Load ${n}\n\nWritten by the cluster load.` };
      const create = await call(base, token, 'POST', '/api/pages', {
        json: { slug: created.slug, title: `Load ${n}`, content: created.content },
      });
      record('create', create.status, 201, create.body);
      if (create.status === 201) ack.pages.push(created);
      const image = png(8, 8, (x, y) => [n & 0xff, (n >> 8) & 0xff, x * 16 + y]);
      const form = new FormData();
      form.append('file', new Blob([image], { type: 'image/png' }), `load-${n}.png`);
      const upload = await call(base, token, 'POST', '/api/images', { body: form });
      record('upload', upload.status, 201, upload.body);
      if (upload.status === 201) {
        ack.media.push({
          url: (upload.body as { url: string }).url,
          sha256: createHash('sha256').update(image).digest('hex'),
        });
      }
    }
  };
  const done = Promise.all(ownPages.map(worker));
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
      return outcomes;
    },
  };
}
