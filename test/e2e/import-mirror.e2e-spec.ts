import { eventually } from '../support/eventually';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { Client } from '../support/users';
import { count, pageRow, postImport, useImportApp, zip } from '../support/import-helpers';
import { finishedJob, startJob } from '../support/import-jobs-helpers';

/** The docs folder as a pipeline pushes it: three pages under the prefix `docs`. */
const FULL = {
  'a.md': '# A\n\nPage a.\n',
  'b.md': '# B\n\nPage b.\n',
  'sub/c.md': '# C\n\nPage c.\n',
};
/** The next push: b and sub/c were deleted from the repository, a changed, d is new. */
const NEXT = {
  'a.md': '# A\n\nPage a, edited.\n',
  'd.md': '# D\n\nPage d.\n',
};

function mirror(
  admin: Client,
  files: Record<string, string>,
  fields: Record<string, string> = {},
  prefix = 'docs',
) {
  return postImport(admin, {
    format: 'markdown',
    prefix,
    files: [{ name: 'docs.zip', data: zip(files) }],
    fields: { mode: 'mirror', ...fields },
  });
}

async function binSlugs(admin: Client): Promise<string[]> {
  const res = await admin.get('/api/bin?limit=100').expect(200);
  return (res.body.items as { slug: string }[]).map((i) => i.slug).sort();
}

async function liveSlugs(): Promise<string[]> {
  const rows: { live_slug: string }[] = await ctx.t.dataSource.query(
    'SELECT live_slug FROM pages WHERE live_slug IS NOT NULL',
  );
  return rows.map((r) => r.live_slug).sort();
}

const ctx = useImportApp();

describe('POST /api/import mode=mirror', () => {
  beforeEach(async () => {
    const { admin } = ctx;
    await mirror(admin, FULL).expect(200);
    // Neighbours that no mirror of `docs` may touch: the prefix page itself, a sibling whose
    // name starts with the prefix, and a page elsewhere.
    for (const slug of ['docs', 'docs-old/x', 'other/y'])
      await createPage(admin, slug, { title: slug, content: 'Outside the mirror.' });
  });

  it('bins the pages under the prefix that the upload no longer holds, in the same import', async () => {
    const { admin, t } = ctx;
    const revisionsBefore = await count(t, 'page_revisions');
    const res = await mirror(admin, NEXT).expect(200);
    expect(res.body).toMatchObject({
      dryRun: false,
      created: ['docs/d'],
      replaced: ['docs/a'],
      unchanged: [],
      binned: ['docs/b', 'docs/sub/c'],
    });
    expect(res.body.counts).toMatchObject({ created: 1, replaced: 1, unchanged: 0, binned: 2 });
    expect(await liveSlugs()).toEqual(['docs', 'docs-old/x', 'docs/a', 'docs/d', 'other/y']);
    expect(await binSlugs(admin)).toEqual(['docs/b', 'docs/sub/c']);
    await admin.get('/api/pages/docs/b').expect(404);
    // Binning writes no revision; the create and the replace write one each.
    expect(await count(t, 'page_revisions')).toBe(revisionsBefore + 2);
    // The same push again: nothing more to bin, nothing changed.
    const again = await mirror(admin, NEXT).expect(200);
    expect(again.body.counts).toMatchObject({ created: 0, replaced: 0, unchanged: 2, binned: 0 });
  });

  it('binned pages are restorable through the bin, with their content', async () => {
    const { admin } = ctx;
    await mirror(admin, NEXT).expect(200);
    const bin = await admin.get('/api/bin?limit=100').expect(200);
    const b = (bin.body.items as { id: string; slug: string }[]).find((i) => i.slug === 'docs/b')!;
    await admin.post(`/api/bin/${b.id}/restore`).expect(200);
    const page = await admin.get('/api/pages/docs/b').expect(200);
    expect(page.body).toMatchObject({ title: 'B', content: 'Page b.' });
  });

  it('announces each binned page after the commit, as DELETE does (events feed)', async () => {
    const { admin } = ctx;
    const start = await admin.get('/api/events?after=latest').expect(200);
    await mirror(admin, NEXT).expect(200);
    await eventually(async () => {
      const res = await admin
        .get(`/api/events?after=${encodeURIComponent(start.body.nextCursor)}&limit=100`)
        .expect(200);
      const binned = (res.body.items as { type: string; data: { slug: string } }[])
        .filter((e) => e.type === 'page.binned')
        .map((e) => e.data.slug)
        .sort();
      expect(binned).toEqual(['docs/b', 'docs/sub/c']);
    }, 15_000);
  });

  it('dry run lists what would be binned and writes nothing', async () => {
    const { admin, t } = ctx;
    const revisions = await count(t, 'page_revisions');
    const live = await liveSlugs();
    const res = await mirror(admin, NEXT, { dryRun: 'true' }).expect(200);
    expect(res.body).toMatchObject({
      dryRun: true,
      created: ['docs/d'],
      replaced: ['docs/a'],
      binned: ['docs/b', 'docs/sub/c'],
    });
    expect(res.body.counts.binned).toBe(2);
    expect(await liveSlugs()).toEqual(live);
    expect(await binSlugs(admin)).toEqual([]);
    expect(await count(t, 'page_revisions')).toBe(revisions);
  });

  it('never touches pages outside the prefix (prefix boundaries are path segments)', async () => {
    const { admin } = ctx;
    // Mirroring `docs-old` with nothing of x: x goes, docs/… and docs stay.
    const res = await mirror(admin, { 'z.md': '# Z\n\nz\n' }, {}, 'docs-old').expect(200);
    expect(res.body.binned).toEqual(['docs-old/x']);
    expect(await liveSlugs()).toEqual([
      'docs',
      'docs-old/z',
      'docs/a',
      'docs/b',
      'docs/sub/c',
      'other/y',
    ]);
    // A nested prefix mirrors only its own subtree.
    const nested = await mirror(admin, { 'c2.md': '# C2\n\nc2\n' }, {}, 'docs/sub').expect(200);
    expect(nested.body.binned).toEqual(['docs/sub/c']);
    expect(await liveSlugs()).toContain('docs/a');
  });

  it('mode=mirror without a prefix is 422 prefix_required and writes nothing', async () => {
    const { admin, t } = ctx;
    const pages = await count(t, 'pages');
    for (const prefix of [undefined, '', ' / ']) {
      const res = await postImport(admin, {
        format: 'markdown',
        ...(prefix === undefined ? {} : { prefix }),
        files: [{ name: 'docs.zip', data: zip(NEXT) }],
        fields: { mode: 'mirror' },
      }).expect(422);
      expect(res.body).toEqual(
        problem(422, 'prefix_required', {
          errors: [
            {
              field: 'prefix',
              code: 'prefix_required',
              message: 'mode=mirror needs a prefix: only pages under it are mirrored.',
            },
          ],
        }),
      );
    }
    const bad = await postImport(admin, {
      format: 'markdown',
      prefix: 'docs',
      files: [{ name: 'docs.zip', data: zip(NEXT) }],
      fields: { mode: 'sync' },
    }).expect(422);
    expect(bad.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          { field: 'mode', code: 'invalid_mode', message: 'mode must be one of merge, mirror.' },
        ],
      }),
    );
    expect(await count(t, 'pages')).toBe(pages);
  });

  it('a strict import refused for invalid files bins nothing', async () => {
    const { admin } = ctx;
    const live = await liveSlugs();
    const res = await mirror(admin, { ...NEXT, 'broken.md': 'no title here\n' }).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(await liveSlugs()).toEqual(live);
    expect(await binSlugs(admin)).toEqual([]);
    expect((await pageRow(ctx.t, 'docs/a'))?.content).toBe('Page a.');
  });

  it('with skipInvalid, a page whose file is still there but invalid stays', async () => {
    const { admin } = ctx;
    const res = await mirror(
      admin,
      { ...NEXT, 'b.md': 'b lost its title\n' },
      {
        skipInvalid: 'true',
      },
    ).expect(200);
    expect(res.body.skipped.map((s: { path: string }) => s.path)).toEqual(['b.md']);
    expect(res.body.binned).toEqual(['docs/sub/c']);
    expect(await liveSlugs()).toContain('docs/b');
  });

  it('runs as an import job too (async=true), dry run and real', async () => {
    const { admin } = ctx;
    const dry = await startJob(admin, zip(NEXT), {
      prefix: 'docs',
      mode: 'mirror',
      dryRun: 'true',
    });
    const dryJob = await finishedJob(admin, dry.id);
    expect(dryJob).toMatchObject({ state: 'succeeded', dryRun: true });
    expect(dryJob.report).toMatchObject({ binned: ['docs/b', 'docs/sub/c'] });
    expect(await binSlugs(admin)).toEqual([]);
    const real = await startJob(admin, zip(NEXT), { prefix: 'docs', mode: 'mirror' });
    const job = await finishedJob(admin, real.id);
    expect(job).toMatchObject({ state: 'succeeded' });
    expect(job.report).toMatchObject({
      created: ['docs/d'],
      binned: ['docs/b', 'docs/sub/c'],
      counts: expect.objectContaining({ binned: 2 }),
    });
    expect(await binSlugs(admin)).toEqual(['docs/b', 'docs/sub/c']);
  });

  it('mode=merge (the default) bins nothing', async () => {
    const { admin } = ctx;
    const res = await mirror(admin, NEXT, { mode: 'merge' }).expect(200);
    expect(res.body.binned).toEqual([]);
    expect(res.body.counts.binned).toBe(0);
    expect(await binSlugs(admin)).toEqual([]);
  });
});
