import { createTestApp, TestApp } from '../support/test-app';
import { GIF_HTML_POLYGLOT, jpeg, png, SVG_WITH_SCRIPT, webp } from '../support/images';
import { problem } from '../support/problems';
import { anonymous, Client, signedIn } from '../support/users';
import { binary, clearStoredMedia, rawMultipart, sha256, upload } from '../support/media-support';

const SANDBOX_CSP = "default-src 'none'; sandbox";
const IMMUTABLE = 'private, max-age=31536000, immutable';

describe('media content', () => {
  let t: TestApp;
  let editor: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    editor = await signedIn(t, 'editor');
    // Who may see an item is media-groups' subject; here a reader-scoped token of the
    // uploader, who sees their own items whatever page uses them.
    reader = await editor.withToken({ scope: 'reader' });
  });

  it('serves an image byte-identical to a caller who may see it, by session or token, with safe headers', async () => {
    const data = jpeg(40, 30, 20_000);
    const { body: meta } = await upload(editor, 'images', data, 'Straße photo.jpg').expect(201);
    for (const client of [editor, reader]) {
      const res = await client.get(meta.url).buffer(true).parse(binary).expect(200);
      expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
      expect(res.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(data.length),
        'x-content-type-options': 'nosniff',
        etag: `"${sha256(data)}"`,
        'cache-control': IMMUTABLE,
        'content-disposition': `inline; filename="Stra_e photo.jpg"; filename*=UTF-8''Stra%C3%9Fe%20photo.jpg`,
        'content-security-policy': SANDBOX_CSP,
        'accept-ranges': 'bytes',
      });
    }
  });

  it('answers 304 to a matching If-None-Match and the full content to a stale one', async () => {
    const data = png(8, 8);
    const { body: meta } = await upload(editor, 'images', data, 'a.png').expect(201);
    const etag = `"${sha256(data)}"`;
    const cached = await reader.get(meta.url).set('If-None-Match', etag).expect(304);
    expect(cached.headers.etag).toBe(etag);
    expect(cached.headers['cache-control']).toBe(IMMUTABLE);
    await reader.get(meta.url).set('If-None-Match', `"other", W/${etag}`).expect(304);
    await reader.get(meta.url).set('If-None-Match', '"other"').expect(200);
  });

  it('serves single byte ranges exactly', async () => {
    const data = webp(300, 200);
    const big = Buffer.concat([png(4, 4), Buffer.alloc(5000, 9)]);
    const { body: small } = await upload(editor, 'images', data, 'w.webp').expect(201);
    const { body: meta } = await upload(editor, 'attachments', big, 'big.bin').expect(201);
    const ranged = async (range: string, start: number, end: number) => {
      const res = await reader
        .get(meta.url)
        .set('Range', range)
        .buffer(true)
        .parse(binary)
        .expect(206);
      expect(Buffer.compare(res.body as Buffer, big.subarray(start, end + 1))).toBe(0);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${big.length}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    };
    await ranged('bytes=0-9', 0, 9);
    await ranged('bytes=100-', 100, big.length - 1);
    await ranged('bytes=-7', big.length - 7, big.length - 1);
    await ranged(`bytes=${big.length - 3}-${big.length + 500}`, big.length - 3, big.length - 1);
    const tiny = await reader
      .get(small.url)
      .set('Range', 'bytes=0-0')
      .buffer(true)
      .parse(binary)
      .expect(206);
    expect(Buffer.compare(tiny.body as Buffer, data.subarray(0, 1))).toBe(0);

    const unsatisfiable = await reader
      .get(meta.url)
      .set('Range', `bytes=${big.length}-`)
      .expect(416);
    expect(unsatisfiable.body).toEqual(problem(416, 'range_not_satisfiable'));
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${big.length}`);
    expect(unsatisfiable.headers['content-disposition']).toBeUndefined();

    // Several ranges, malformed ranges and a stale If-Range get the whole content.
    for (const [header, value] of [
      ['Range', 'bytes=0-1,5-6'],
      ['Range', 'items=0-3'],
      ['Range', 'bytes=9-2'],
    ]) {
      const res = await reader
        .get(meta.url)
        .set(header, value)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(Buffer.compare(res.body as Buffer, big)).toBe(0);
    }
    await reader.get(meta.url).set('Range', 'bytes=0-3').set('If-Range', '"stale"').expect(200);
    await reader
      .get(meta.url)
      .set('Range', 'bytes=0-3')
      .set('If-Range', `"${sha256(big)}"`)
      .expect(206);
  });

  it('answers HEAD with the headers only', async () => {
    const data = png(3, 3);
    const { body: meta } = await upload(editor, 'images', data, 'a.png').expect(201);
    const res = await reader.head(meta.url).expect(200);
    expect(res.headers['content-length']).toBe(String(data.length));
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('never serves an SVG with script inline or with an SVG type', async () => {
    const { body: meta } = await upload(
      editor,
      'attachments',
      SVG_WITH_SCRIPT,
      'logo.svg',
      'image/svg+xml',
    ).expect(201);
    const res = await reader.get(meta.url).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(res.body as Buffer, SVG_WITH_SCRIPT)).toBe(0);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="logo.svg"; filename*=UTF-8''logo.svg`,
    );
    expect(res.headers['content-security-policy']).toBe(SANDBOX_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never serves a GIF/HTML polyglot with an HTML type', async () => {
    const { body: image } = await upload(
      editor,
      'images',
      GIF_HTML_POLYGLOT,
      'page.html',
      'text/html',
    ).expect(201);
    const asImage = await reader.get(image.url).expect(200);
    expect(asImage.headers['content-type']).toBe('image/gif');
    expect(asImage.headers['content-disposition']).toBe(
      `inline; filename="page.html.gif"; filename*=UTF-8''page.html.gif`,
    );
    expect(asImage.headers['content-security-policy']).toBe(SANDBOX_CSP);
    expect(asImage.headers['x-content-type-options']).toBe('nosniff');
    const { body: attachment } = await upload(
      editor,
      'attachments',
      GIF_HTML_POLYGLOT,
      'page.html',
      'text/html',
    ).expect(201);
    const asAttachment = await reader.get(attachment.url).expect(200);
    expect(asAttachment.headers['content-type']).toBe('image/gif');
    expect(asAttachment.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('serves attachments as downloads with an RFC 5987 file name', async () => {
    const data = Buffer.from('quarterly numbers\n');
    const { body: multipart, contentType } = rawMultipart(
      'Bericht "Q1" 2026 — €.txt'.replace(/"/g, '\\"'),
      data,
    );
    const { body: meta } = await editor
      .post('/api/attachments')
      .set('Content-Type', contentType)
      .send(multipart)
      .expect(201);
    expect(meta.filename).toBe('Bericht _Q1_ 2026 — €.txt');
    const res = await reader.get(meta.url).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Bericht _Q1_ 2026 _ _.txt"; filename*=UTF-8''Bericht%20_Q1_%202026%20%E2%80%94%20%E2%82%AC.txt`,
    );
  });

  it('answers 404 for unknown ids and for the other kind, and 401 without credentials', async () => {
    const { body: image } = await upload(editor, 'images', png(1, 1), 'a.png').expect(201);
    await reader
      .get(`/api/attachments/${image.id}/content`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'attachment_not_found')));
    await reader
      .get('/api/images/00000000-0000-4000-8000-000000000000/content')
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'image_not_found')));
    await reader.get('/api/images/not-a-uuid/content').expect(404);
    await anonymous(t)
      .get(image.url)
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
  });
});
