import type { AddressInfo } from 'node:net';
import { IMPORT_PHASES } from '../../src/import/run/run-types';
import { followEvents, StreamEvent } from './event-stream';
import type { TestApp } from './test-app';
import type { Client } from './users';
import { postImport, zip } from './import-helpers';

/** A ZIP of `n` Markdown pages, each linking to the next. */
export function manyPages(n: number, folder = 'docs'): Buffer {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`${folder}/page-${i}.md`] =
      `# Page ${i}\n\nSome text of page ${i}, [next](page-${i + 1}.md).\n`;
  return zip(files);
}

/** POST /api/import with async=true; the job id from Location. */
export async function startJob(
  client: Client,
  data: Buffer,
  fields: Record<string, string> = {},
): Promise<{ id: string; body: Record<string, unknown> }> {
  const res = await postImport(client, {
    format: 'markdown',
    files: [{ name: 'docs.zip', data }],
    fields: { async: 'true', ...fields },
  });
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status}: ${res.text}`);
  const id = String(res.body.id);
  expect(res.headers.location).toBe(`/api/import/jobs/${id}`);
  return { id, body: res.body };
}

/** The app's own listening address (SSE needs a real socket). */
export async function baseUrl(t: TestApp): Promise<string> {
  const server = t.app.getHttpServer();
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export function authHeaders(client: Client): Record<string, string> {
  return client.auth.cookie
    ? { Cookie: client.auth.cookie }
    : { Authorization: `Bearer ${client.auth.bearer}` };
}

/** The job's event stream to its end. */
export async function jobEvents(
  t: TestApp,
  client: Client,
  id: string,
  onEvent?: (event: StreamEvent) => void,
) {
  return followEvents(
    `${await baseUrl(t)}/api/import/jobs/${id}/events`,
    authHeaders(client),
    onEvent,
  );
}

/** Progress events go forward: phases in their order, `done` never back within a phase. */
export function expectOrderedProgress(events: StreamEvent[]): void {
  let phase = -1;
  let done = -1;
  for (const { event, data } of events) {
    if (event !== 'progress') continue;
    const index = IMPORT_PHASES.indexOf(data.phase);
    expect(index).toBeGreaterThanOrEqual(phase);
    if (index > phase) done = -1;
    expect(data.done).toBeGreaterThanOrEqual(done);
    expect(data.done).toBeLessThanOrEqual(data.total);
    phase = index;
    done = data.done;
  }
}

/** Polls the job until it has finished. */
export async function finishedJob(
  client: Client,
  id: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const started = Date.now();
  for (;;) {
    const res = await client.get(`/api/import/jobs/${id}`).expect(200);
    if (['succeeded', 'failed', 'cancelled'].includes(res.body.state)) return res.body;
    if (Date.now() - started > timeoutMs) throw new Error(`job still ${res.body.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
