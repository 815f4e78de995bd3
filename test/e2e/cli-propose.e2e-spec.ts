import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunningKb, runEntry } from '../support/kb-process';
import { KbWithToken, startKbWithToken, writeFolder } from '../support/kb-with-token';

jest.setTimeout(300_000);

/** `kb push --propose LABEL --wait` as its own process against a running kb. */
describe('kb push --propose against a running kb', () => {
  let kb: RunningKb;
  let started: KbWithToken | undefined;
  let work: string;
  let token: string;

  const api = async (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${kb.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
  const cli = (args: string[]) =>
    runEntry('cli', { KB_URL: kb.url, KB_TOKEN: token, KB_PROPOSE_POLL_MS: '200' }, args);
  /** The open request with this label, once the CLI made it. */
  const requestLabelled = async (label: string): Promise<{ id: number; version: number }> => {
    for (let i = 0; i < 600; i++) {
      const list = (await (await api('/api/change-requests')).json()) as {
        items: { id: number; label: string; version: number }[];
      };
      const found = list.items.find((r) => r.label === label);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no change request labelled ${label}`);
  };

  beforeAll(async () => {
    started = await startKbWithToken('cli-propose');
    ({ kb, token, work } = started);
  }, 120_000);
  afterAll(() => started?.stop());

  it('proposes a folder, prints the URL, waits for the merge (0) and updates by label', async () => {
    await api('/api/pages', {
      method: 'POST',
      body: JSON.stringify({ slug: 'docs/setup', title: 'Setup', content: 'Run it.' }),
    });
    const docs = writeFolder(join(work, 'docs'), {
      'setup.md': '# Setup\n\nRun it twice.\n',
      'guides/new.md': '# New guide\n\nSee [setup](/docs/setup) and [gone](/docs/nowhere).\n',
    });
    const junit = join(work, 'links.xml');
    const running = cli([
      'push',
      docs,
      '--propose',
      'feature-x',
      '--prefix',
      'docs',
      '--wait',
      '--junit',
      junit,
    ]);
    const request = await requestLabelled('feature-x');
    const detail = (await (await api(`/api/change-requests/${request.id}`)).json()) as {
      changes: { slug: string; action: string; content: string }[];
    };
    expect(detail.changes).toEqual([
      expect.objectContaining({ slug: 'docs/guides/new', action: 'create' }),
      expect.objectContaining({ slug: 'docs/setup', action: 'update', content: 'Run it twice.' }),
    ]);
    // The page is unchanged until the merge.
    expect(
      ((await (await api('/api/pages/docs/setup')).json()) as { content: string }).content,
    ).toBe('Run it.');
    expect((await api(`/api/change-requests/${request.id}/merge`, { method: 'POST' })).status).toBe(
      200,
    );
    const result = await running;
    expect(result.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `change request #${request.id} (created, 2 pages): ${kb.url}/change-requests/${request.id}`,
    );
    expect(result.stdout).toContain(`change request #${request.id} merged`);
    expect(readFileSync(junit, 'utf8')).toContain('broken link to /docs/nowhere');
    expect(
      ((await (await api('/api/pages/docs/setup')).json()) as { content: string }).content,
    ).toBe('Run it twice.');

    // Nothing left to propose: exit 0 without a request.
    const same = await cli(['push', docs, '--propose', 'feature-x', '--prefix', 'docs']);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain('nothing to propose');

    // A second push with one label updates the open request of that label.
    writeFileSync(join(docs, 'setup.md'), '# Setup\n\nRun it three times.\n');
    const first = await cli(['push', docs, '--propose', 'feature-y', '--prefix', 'docs']);
    expect(first.status).toBe(0);
    writeFileSync(join(docs, 'setup.md'), '# Setup\n\nRun it four times.\n');
    const second = await cli(['push', docs, '--propose', 'feature-y', '--prefix', 'docs']);
    expect(second.status).toBe(0);
    const y = await requestLabelled('feature-y');
    expect(second.stdout).toContain(`change request #${y.id} (updated, 1 pages)`);
    expect(y.version).toBe(2);
  });

  it('exits non-zero when the request is closed', async () => {
    const docs = writeFolder(join(work, 'closing'), { 'page.md': '# Page\n\nText.\n' });
    const running = cli(['push', docs, '--propose', 'to-close', '--prefix', 'closing', '--wait']);
    const request = await requestLabelled('to-close');
    expect((await api(`/api/change-requests/${request.id}/close`, { method: 'POST' })).status).toBe(
      200,
    );
    const result = await running;
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`change request #${request.id} was closed without merging`);
    expect((await api('/api/pages/closing/page')).status).toBe(404);
  });

  it('refuses bad usage with 64', async () => {
    const docs = writeFolder(join(work, 'usage'), { 'a.md': '# A\n' });
    const mirror = await cli(['push', docs, '--propose', 'x', '--mirror', '--prefix', 'p']);
    expect(mirror.status).toBe(64);
    const wait = await cli(['push', docs, '--format', 'markdown', '--wait']);
    expect(wait.status).toBe(64);
  });
});
