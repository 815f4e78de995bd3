import { unzipSync } from 'fflate';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MediaService } from '../../src/media/media.service';
import { createPage } from '../support/pages';
import { fieldErrors, problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  sha256,
  testPng,
  UploadedMedia,
  uploadAttachment,
  uploadImage,
} from '../support/export-fixtures';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('export: archive (admin)', () => {
  let t: TestApp;
  let admin: Client;
  let logo: UploadedMedia;
  let chart: UploadedMedia;
  let manual: UploadedMedia;
  let loose: UploadedMedia;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    await createGroup(t, 'finance');
    await setSiteVariables(admin, { site_name: 'KB Inc' });
    logo = await uploadImage(admin, testPng(1), 'logo.png');
    chart = await uploadImage(admin, testPng(2), 'chart.png');
    manual = await uploadAttachment(admin, Buffer.from('%PDF-1.4 the manual'), 'manual.pdf');
    loose = await uploadAttachment(admin, Buffer.from('a,b\n1,2\n'), 'data.csv');
    await createPage(admin, 'guide/intro', {
      title: 'Intro',
      content: `Welcome to {{site_name}}, {{customer}}.\n\n![logo](${logo.url})\n\n[manual](${manual.url})`,
      icon: '📘',
      language: 'en-GB',
      tags: ['onboarding', 'guide'],
      lifecycle: 'in_review',
      owner: admin.user!.username,
      reviewIntervalDays: 30,
      groups: ['finance'],
      properties: { audience: 'staff', level: 2, internal: true },
      variables: { customer: 'Default Corp' },
      verified: true,
    });
    await createPage(admin, 'guide/old', {
      title: 'Old guide',
      content: `Moved. ![logo](${logo.url}) ![chart](${chart.url})`,
      lifecycle: 'deprecated',
      deprecatedTarget: 'guide/intro',
    });
    await createPage(admin, 'zzz/binned', { title: 'Binned', content: 'gone' });
    await admin.delete('/api/pages/zzz/binned').expect(204);
  });

  function archive(client: Client, body?: unknown) {
    const req = client.post('/api/export/archive');
    return (body === undefined ? req : req.send(body as object)).buffer(true).parse(binary);
  }

  function unzip(body: Buffer): Record<string, Buffer> {
    const entries = unzipSync(new Uint8Array(body));
    return Object.fromEntries(
      Object.entries(entries).map(([name, data]) => [name, Buffer.from(data)]),
    );
  }

  it('streams all live pages, every stored item once and a manifest with all metadata and checksums', async () => {
    const res = await archive(admin).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="kb-archive-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.zip"/,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-length']).toBeUndefined();
    const files = unzip(res.body as Buffer);
    const mediaPath = (m: UploadedMedia) => `media/${m.id}/${m.filename}`;
    // Pages by slug, then referenced media by id, then the rest of the media, the manifest last.
    const media = [...[logo, manual, chart].sort((a, b) => (a.id < b.id ? -1 : 1)), loose];
    expect(Object.keys(files)).toEqual([
      'guide/intro.md',
      'guide/old.md',
      ...media.map(mediaPath),
      'manifest.json',
    ]);

    expect(files['guide/intro.md'].toString('utf8')).toBe(
      `# Intro\n\nWelcome to {{site_name}}, {{customer}}.\n\n![logo](../${mediaPath(logo)})\n\n[manual](../${mediaPath(manual)})\n`,
    );
    expect(files['guide/old.md'].toString('utf8')).toBe(
      `# Old guide\n\nMoved. ![logo](../${mediaPath(logo)}) ![chart](../${mediaPath(chart)})\n`,
    );
    for (const m of [logo, chart, manual, loose])
      expect(files[mediaPath(m)].equals(m.bytes)).toBe(true);

    const manifest = JSON.parse(files['manifest.json'].toString('utf8'));
    const page = (await admin.get('/api/pages/guide/intro').expect(200)).body;
    expect(manifest).toEqual({
      format: 'kb-archive',
      version: 1,
      exportedAt: ISO,
      exportedBy: admin.user!.username,
      selection: 'all',
      siteVariables: { site_name: 'KB Inc' },
      redirects: [],
      templates: [],
      counts: { pages: 2, media: 4 },
      pages: [
        {
          path: 'guide/intro.md',
          slug: 'guide/intro',
          title: 'Intro',
          icon: '📘',
          language: 'en-GB',
          tags: page.tags,
          lifecycle: 'in_review',
          owner: admin.user!.username,
          ownerId: admin.user!.id,
          reviewIntervalDays: 30,
          nextReviewAt: page.nextReviewAt,
          groups: ['finance'],
          deprecatedTarget: null,
          properties: { audience: 'staff', level: 2, internal: true },
          variables: { customer: 'Default Corp' },
          verified: true,
          revision: 1,
          summary: null,
          createdAt: page.createdAt,
          updatedAt: page.updatedAt,
          media: [logo.id, manual.id],
          size: files['guide/intro.md'].length,
          sha256: sha256(files['guide/intro.md']),
          comments: [],
        },
        expect.objectContaining({
          path: 'guide/old.md',
          slug: 'guide/old',
          lifecycle: 'deprecated',
          deprecatedTarget: 'guide/intro',
          groups: [],
          owner: admin.user!.username,
          ownerId: admin.user!.id,
          media: [logo.id, chart.id],
          sha256: sha256(files['guide/old.md']),
          comments: [],
        }),
      ],
      media: media.map((m) => ({
        id: m.id,
        kind: m === manual || m === loose ? 'attachment' : 'image',
        path: mediaPath(m),
        filename: m.filename,
        mimeType: m.mimeType,
        size: m.bytes.length,
        sha256: sha256(m.bytes),
        ...(m === manual || m === loose ? {} : { width: 8, height: 8 }),
        createdAt: ISO,
      })),
    });
    expect(page.tags).toEqual(expect.arrayContaining(['guide', 'onboarding']));
    expect(page.nextReviewAt).toEqual(ISO);
  });

  it('exports only the selected pages (slugs normalised, duplicates once) with only their media', async () => {
    const res = await archive(admin, { slugs: ['GUIDE/Old', '/guide/old/'] }).expect(200);
    const files = unzip(res.body as Buffer);
    const media = [logo, chart].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(Object.keys(files)).toEqual([
      'guide/old.md',
      ...media.map((m) => `media/${m.id}/${m.filename}`),
      'manifest.json',
    ]);
    const manifest = JSON.parse(files['manifest.json'].toString('utf8'));
    expect(manifest.selection).toBe('slugs');
    expect(manifest.counts).toEqual({ pages: 1, media: 2 });
    expect(manifest.pages.map((p: { slug: string }) => p.slug)).toEqual(['guide/old']);
    expect(manifest.media.map((m: { id: string }) => m.id)).toEqual(media.map((m) => m.id));
  });

  it('answers an empty but valid archive when there are no pages', async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    const files = unzip((await archive(admin, {}).expect(200)).body as Buffer);
    expect(Object.keys(files)).toEqual(['manifest.json']);
    expect(JSON.parse(files['manifest.json'].toString('utf8'))).toMatchObject({
      counts: { pages: 0, media: 0 },
      pages: [],
      media: [],
      siteVariables: {},
    });
  });

  it('is for administrators: 401 anonymous, 403 editors and readers, bearer tokens of admins work', async () => {
    expect((await anonymous(t).post('/api/export/archive').send({}).expect(401)).body).toEqual(
      problem(401, 'unauthenticated'),
    );
    for (const role of ['editor', 'reader'] as const) {
      const client = await signedIn(t, role, { groups: ['finance'] });
      expect((await client.post('/api/export/archive').send({}).expect(403)).body).toEqual(
        problem(403, 'insufficient_role'),
      );
    }
    const bearer = await admin.withToken();
    const files = unzip(
      (await archive(bearer, { slugs: ['guide/intro'] }).expect(200)).body as Buffer,
    );
    expect(Object.keys(files)).toContain('guide/intro.md');
  });

  it('refuses malformed requests (400) and bad selections (422) before streaming anything', async () => {
    for (const [type, body, code] of [
      ['application/json', '[]', 'invalid_body'],
      ['application/json', '{"slugs": "guide/intro"}', 'invalid_slugs'],
      ['application/json', '{"slugs": null}', 'invalid_slugs'],
      ['application/json', '{"slugs": [', 'invalid_json'],
    ]) {
      const res = await admin.post('/api/export/archive').set('Content-Type', type).send(body);
      expect({ body, status: res.status, problem: res.body }).toEqual({
        body,
        status: 400,
        problem: problem(400, code),
      });
    }
    const text = await admin
      .post('/api/export/archive')
      .set('Content-Type', 'text/plain')
      .send('guide/intro');
    expect({ status: text.status, problem: text.body }).toEqual({
      status: 415,
      problem: problem(415, 'unsupported_media_type'),
    });
    expect((await admin.post('/api/export/archive').send({ slugs: [] }).expect(422)).body).toEqual(
      fieldErrors({ field: 'slugs', code: 'empty' }),
    );
    expect(
      (
        await admin
          .post('/api/export/archive')
          .send({ slugs: ['guide/intro', 7] })
          .expect(400)
      ).body,
    ).toEqual(
      problem(400, 'invalid_type', {
        errors: [{ field: 'slugs.1', code: 'not_a_string', message: expect.any(String) }],
      }),
    );
    expect(
      (
        await admin
          .post('/api/export/archive')
          .send({ slugs: ['guide/intro', 'nope', 'zzz/binned'] })
          .expect(422)
      ).body,
    ).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          { field: 'slugs.1', code: 'page_not_found', message: expect.any(String) },
          { field: 'slugs.2', code: 'page_not_found', message: expect.any(String) },
        ],
      }),
    );
    expect(
      (
        await admin
          .post('/api/export/archive')
          .send({ pages: ['x'] })
          .expect(422)
      ).body,
    ).toEqual(fieldErrors({ field: 'pages', code: 'unknown_field' }));
  });

  it('stops building the archive when the client goes away and removes its temporary files', async () => {
    // Incompressible attachments make the archive large enough to still be in flight.
    const blobs = 24;
    for (let i = 0; i < blobs; i++)
      await uploadAttachment(admin, randomBytes(1024 * 1024), `blob-${i}.bin`);
    const opened = jest.spyOn(t.get(MediaService), 'openContent');
    const server = t.app.getHttpServer();
    if (!server.listening)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/export/archive',
          headers: {
            Cookie: admin.auth.cookie!,
            'Sec-Fetch-Site': 'same-origin',
            'Content-Type': 'application/json',
          },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > 64 * 1024) {
              res.destroy();
              req.destroy();
              resolve(bytes);
            }
          });
          res.on('end', () => resolve(bytes));
          res.on('error', () => resolve(bytes));
          res.on('close', () => resolve(bytes));
        },
      );
      req.on('error', (error) =>
        error.message.includes('aborted') || error.message.includes('socket hang up')
          ? undefined
          : reject(error),
      );
      req.end('{}');
    });
    expect(received).toBeLessThan(blobs * 1024 * 1024);
    // The server stopped reading media soon after, is still healthy, and removed its temporary folder.
    await new Promise((r) => setTimeout(r, 500));
    expect(opened.mock.calls.length).toBeLessThan(blobs);
    opened.mockRestore();
    await t.http().get('/healthz').expect(200);
    // Temporary folders live under <dataDir>/tmp, like uploads and imports.
    const tmp = join(t.dataDir, 'tmp');
    const leftovers = existsSync(tmp)
      ? readdirSync(tmp).filter((n) => n.startsWith('kb-archive-'))
      : [];
    expect(leftovers).toEqual([]);
  });
});
