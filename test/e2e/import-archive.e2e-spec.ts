import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, signedIn } from '../support/users';
import { count, fixture, MEDIA_URL, pageRow, postImport, zip } from '../support/import-helpers';

/** A kb archive as docs/export.md describes it: `<slug>.md`, `media/<id>/<name>`, manifest.json. */
function kbArchive(owner: string, siteVariables: Record<string, unknown> = {}): Buffer {
  const page = (slug: string, title: string, extra: Record<string, unknown>) => ({
    path: `${slug}.md`,
    slug,
    title,
    icon: null,
    language: null,
    tags: [],
    lifecycle: 'published',
    owner: null,
    ownerId: null,
    reviewIntervalDays: null,
    nextReviewAt: null,
    groups: [],
    deprecatedTarget: null,
    properties: {},
    variables: {},
    verified: true,
    revision: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    media: [],
    size: 0,
    sha256: '',
    ...extra,
  });
  const manifest = {
    format: 'kb-archive',
    version: 1,
    exportedAt: '2026-01-03T00:00:00.000Z',
    exportedBy: 'someone',
    selection: 'all',
    siteVariables,
    pages: [
      page('handbook/old', 'Old handbook', {
        lifecycle: 'deprecated',
        deprecatedTarget: 'handbook',
        verified: false,
      }),
      page('handbook', 'Handbook for {{customer}}', {
        icon: 'book',
        language: 'en',
        tags: ['policy', 'hr'],
        owner,
        reviewIntervalDays: 90,
        groups: ['finance'],
        properties: { team: 'people', level: 2 },
        variables: { customer: 'ACME' },
        media: ['11111111-1111-4111-8111-111111111111'],
      }),
    ],
    media: [
      {
        id: '11111111-1111-4111-8111-111111111111',
        kind: 'image',
        path: 'media/11111111-1111-4111-8111-111111111111/logo.png',
        filename: 'logo.png',
        mimeType: 'image/png',
        size: 0,
        sha256: '',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      {
        id: '22222222-2222-4222-8222-222222222222',
        kind: 'attachment',
        path: 'media/22222222-2222-4222-8222-222222222222/unused.txt',
        filename: 'unused.txt',
        mimeType: 'text/plain',
        size: 0,
        sha256: '',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ],
    counts: { pages: 2, media: 2 },
  };
  return zip({
    'handbook.md':
      '# Handbook for {{customer}}\n\nHello {{customer}}.\n\n![logo](media/11111111-1111-4111-8111-111111111111/logo.png)',
    'handbook/old.md': '# Old handbook\n\nSee [the handbook](../handbook.md).',
    'media/11111111-1111-4111-8111-111111111111/logo.png': fixture('markdown/images/logo.png'),
    'media/22222222-2222-4222-8222-222222222222/unused.txt': 'kept even though no page links it',
    'manifest.json': JSON.stringify(manifest),
  });
}

describe('POST /api/import: kb archives (manifest.json)', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    await createGroup(t, 'finance');
  });

  it('restores page metadata from the manifest and stores every listed media file', async () => {
    const owner = await createUser(t, 'editor', { username: 'owner-one' });
    await admin
      .put('/api/variables')
      .send({ variables: { keep_me: 'kept', site_name: 'Before' } })
      .expect(200);
    const res = await postImport(admin, {
      format: 'markdown',
      files: [
        {
          name: 'kb-archive.zip',
          data: kbArchive(owner.username, { site_name: 'From archive', support: 'help@x' }),
        },
      ],
    }).expect(200);
    expect(res.body).toMatchObject({
      created: ['handbook', 'handbook/old'],
      siteVariables: ['site_name', 'support'],
      images: [
        {
          path: 'media/11111111-1111-4111-8111-111111111111/logo.png',
          url: expect.stringMatching(MEDIA_URL),
        },
      ],
      attachments: [
        {
          path: 'media/22222222-2222-4222-8222-222222222222/unused.txt',
          url: expect.stringMatching(MEDIA_URL),
        },
      ],
      unresolvedLinks: [],
      unresolvedImages: [],
    });
    const handbook = await admin.get('/api/pages/handbook').expect(200);
    expect(handbook.body).toMatchObject({
      title: 'Handbook for {{customer}}',
      content: `Hello {{customer}}.\n\n![logo](${res.body.images[0].url})`,
      icon: 'book',
      language: 'en',
      tags: ['policy', 'hr'],
      lifecycle: 'published',
      reviewIntervalDays: 90,
      groups: ['finance'],
      properties: { team: 'people', level: 2 },
      variables: { customer: 'ACME' },
      verified: true,
    });
    expect(handbook.body.owner).toBe('owner-one');
    const old = await admin.get('/api/pages/handbook/old').expect(200);
    expect(old.body).toMatchObject({
      lifecycle: 'deprecated',
      deprecatedTarget: 'handbook',
      // A kb archive is a backup: `verified` comes back as exported.
      verified: false,
      content: 'See [the handbook](/handbook).',
    });
    expect(await count(t, 'media')).toBe(2);
    // The archive's site variables are set or overwritten; the others stay.
    expect((await admin.get('/api/variables').expect(200)).body).toEqual({
      variables: { keep_me: 'kept', site_name: 'From archive', support: 'help@x' },
    });
    // ...and pages render with them at once.
    await admin
      .post('/api/pages')
      .send({ slug: 'uses-site', title: 'S', content: 'Made by {{site_name}}' })
      .expect(201);
    expect((await admin.get('/api/pages/uses-site').expect(200)).body.html).toContain(
      'Made by From archive',
    );
  });

  it('reports site variables in a dry run without writing them; invalid ones refuse the archive', async () => {
    await createUser(t, 'editor', { username: 'owner-one' });
    const dry = await postImport(admin, {
      format: 'markdown',
      dryRun: true,
      files: [{ name: 'kb-archive.zip', data: kbArchive('owner-one', { site_name: 'X' }) }],
    }).expect(200);
    expect(dry.body).toMatchObject({ siteVariables: ['site_name'], counts: { siteVariables: 1 } });
    expect((await admin.get('/api/variables').expect(200)).body).toEqual({ variables: {} });

    const bad = await postImport(admin, {
      format: 'markdown',
      files: [
        {
          name: 'kb-archive.zip',
          data: kbArchive('owner-one', { 'bad name': 'x', fine: 'y', long: 'z'.repeat(10_001) }),
        },
      ],
    }).expect(422);
    expect(bad.body.errors).toEqual([
      {
        field: 'files[manifest.json]',
        code: 'invalid_variable_name',
        message: expect.stringContaining('siteVariables.bad name'),
      },
      {
        field: 'files[manifest.json]',
        code: expect.any(String),
        message: expect.stringContaining('siteVariables.long'),
      },
    ]);
    expect(await count(t, 'pages')).toBe(0);
    expect((await admin.get('/api/variables').expect(200)).body).toEqual({ variables: {} });

    // skipInvalid imports the pages and names the refused site variables; none are set.
    const skipped = await postImport(admin, {
      format: 'markdown',
      skipInvalid: true,
      files: [{ name: 'kb-archive.zip', data: kbArchive('owner-one', { 'bad name': 'x' }) }],
    }).expect(200);
    expect(skipped.body).toMatchObject({
      created: ['handbook', 'handbook/old'],
      siteVariables: [],
      skipped: [{ path: 'manifest.json', code: 'invalid_variable_name' }],
    });
    expect((await admin.get('/api/variables').expect(200)).body).toEqual({ variables: {} });
  });

  it('an unknown group refuses the page instead of dropping the restriction', async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    const res = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'kb-archive.zip', data: kbArchive('nobody') }],
    }).expect(422);
    expect(res.body.errors).toEqual([
      {
        field: 'files[handbook.md]',
        code: expect.any(String),
        message: expect.stringContaining('finance'),
      },
      // Its deprecated sibling points at it, so it cannot be written either.
      {
        field: 'files[handbook/old.md]',
        code: 'unknown_page',
        message: expect.stringContaining('deprecatedTarget'),
      },
    ]);
    expect(await count(t, 'pages')).toBe(0);
    expect(await pageRow(t, 'handbook')).toBeUndefined();
  });
});
