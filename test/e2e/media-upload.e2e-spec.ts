import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../support/test-app';
import {
  GIF_HTML_POLYGLOT,
  gif,
  HTML_DISGUISED,
  jpeg,
  png,
  SVG_WITH_SCRIPT,
  webp,
} from '../support/images';
import { problem } from '../support/problems';
import { Client, signedIn } from '../support/users';
import {
  clearStoredMedia,
  filesUnder,
  ISO_DATE,
  rawMultipart,
  sha256,
  storedMedia,
  upload,
  UUID,
} from '../support/media-support';

const IMAGE_LIMIT = 150_000;
const ATTACHMENT_LIMIT = 200_000;

describe('media uploads', () => {
  let t: TestApp;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp({
      IMAGE_MAX_BYTES: String(IMAGE_LIMIT),
      ATTACHMENT_MAX_BYTES: String(ATTACHMENT_LIMIT),
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    editor = await signedIn(t, 'editor');
  });

  const rows = (): Promise<{ id: string; sha256: string; kind: string }[]> =>
    t.get(DataSource).query('SELECT id, sha256, kind FROM media ORDER BY created_at');

  it.each([
    ['PNG', png(5, 3), 'diagram.png', 'image/png', 5, 3],
    [
      'JPEG (frame header after 70 KB of EXIF)',
      jpeg(33, 17, 70_000),
      'photo.jpg',
      'image/jpeg',
      33,
      17,
    ],
    ['GIF', gif(7, 4), 'anim.gif', 'image/gif', 7, 4],
    ['WebP', webp(6, 11), 'pic.webp', 'image/webp', 6, 11],
  ])(
    'stores a real %s with its detected type and size',
    async (_name, data, filename, mimeType, width, height) => {
      const res = await upload(editor, 'images', data, filename, 'application/octet-stream').expect(
        201,
      );
      const hash = sha256(data);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        kind: 'image',
        filename,
        mimeType,
        size: data.length,
        sha256: hash,
        url: `/api/images/${res.body.id}/content`,
        width,
        height,
        createdAt: expect.stringMatching(ISO_DATE),
        uploadedBy: {
          id: editor.user!.id,
          username: editor.user!.username,
          displayName: editor.user!.username,
        },
      });
      expect(await rows()).toEqual([{ id: res.body.id, sha256: hash, kind: 'image' }]);
      expect(await storedMedia(t)).toEqual([hash]);
      expect(filesUnder(t, 'tmp')).toEqual([]);
    },
  );

  it('accepts uploads with a bearer token too', async () => {
    const token = await editor.withToken();
    const res = await upload(token, 'images', png(2, 2), 'a.png').expect(201);
    expect(res.body.uploadedBy.id).toBe(editor.user!.id);
  });

  it('refuses HTML disguised as a PNG (name and declared type lie) with 415 and keeps nothing', async () => {
    const res = await upload(editor, 'images', HTML_DISGUISED, 'photo.png', 'image/png').expect(
      415,
    );
    expect(res.body).toEqual(problem(415, 'unsupported_image_type'));
    expect(await rows()).toEqual([]);
    expect(await storedMedia(t)).toEqual([]);
    expect(filesUnder(t, 'tmp')).toEqual([]);
  });

  it('refuses SVG as an image, even declared as image/svg+xml', async () => {
    const res = await upload(editor, 'images', SVG_WITH_SCRIPT, 'logo.svg', 'image/svg+xml').expect(
      415,
    );
    expect(res.body).toEqual(problem(415, 'unsupported_image_type'));
  });

  it('stores SVG with script as an attachment with a neutral type', async () => {
    const res = await upload(
      editor,
      'attachments',
      SVG_WITH_SCRIPT,
      'logo.svg',
      'image/svg+xml',
    ).expect(201);
    expect(res.body).toMatchObject({
      kind: 'attachment',
      filename: 'logo.svg',
      mimeType: 'application/octet-stream',
      size: SVG_WITH_SCRIPT.length,
    });
    expect(res.body).not.toHaveProperty('width');
  });

  it('stores a GIF/HTML polyglot as image/gif, never as HTML', async () => {
    const image = await upload(editor, 'images', GIF_HTML_POLYGLOT, 'x.html', 'text/html').expect(
      201,
    );
    // The name gets the real type's extension, so a saved copy never opens as a page.
    expect(image.body).toMatchObject({
      filename: 'x.html.gif',
      mimeType: 'image/gif',
      width: 10,
      height: 10,
    });
    const attachment = await upload(
      editor,
      'attachments',
      GIF_HTML_POLYGLOT,
      'x.html',
      'text/html',
    ).expect(201);
    expect(attachment.body).toMatchObject({ mimeType: 'image/gif' });
  });

  it.each([
    ['HTML', HTML_DISGUISED, 'page.html', 'application/octet-stream'],
    [
      'plain text',
      Buffer.from('just some notes\nline 2\n'),
      'notes.txt',
      'text/plain; charset=utf-8',
    ],
    ['CSV', Buffer.from('a,b\n1,2\n'), 'table.csv', 'text/csv; charset=utf-8'],
    [
      'PDF',
      Buffer.from('%PDF-1.4\n%\xff\xff\n1 0 obj\n<<>>\nendobj\n', 'latin1'),
      'doc.pdf',
      'application/pdf',
    ],
    [
      'JavaScript claiming text/javascript',
      Buffer.from('alert(1)\n'),
      'x.js',
      'text/plain; charset=utf-8',
    ],
    ['binary', Buffer.from([0, 1, 2, 3, 255, 254]), 'blob.bin', 'application/octet-stream'],
  ])('types an attachment of %s from its bytes', async (_name, data, filename, mimeType) => {
    const res = await upload(editor, 'attachments', data, filename, 'text/html').expect(201);
    expect(res.body.mimeType).toBe(mimeType);
  });

  it('refuses an image whose header is damaged with 422', async () => {
    const damaged = png(4, 4).subarray(0, 12);
    const res = await upload(editor, 'images', damaged, 'broken.png').expect(422);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [{ field: 'file', code: 'invalid_image', message: expect.any(String) }],
      }),
    );
    expect(filesUnder(t, 'tmp')).toEqual([]);
  });

  it('refuses an empty file, a missing file field, a second file and a non-multipart body', async () => {
    await upload(editor, 'attachments', Buffer.alloc(0), 'empty.txt')
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [{ field: 'file', code: 'empty_file', message: expect.any(String) }],
          }),
        ),
      );
    await editor
      .post('/api/images')
      .field('other', 'x')
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [{ field: 'file', code: 'required', message: expect.any(String) }],
          }),
        ),
      );
    await editor
      .post('/api/images')
      .attach('file', png(1, 1), 'a.png')
      .attach('file', png(2, 2), 'b.png')
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'too_many_files')));
    await editor
      .post('/api/images')
      .send({ file: 'x' })
      .expect(415)
      .expect((r) => expect(r.body).toEqual(problem(415, 'multipart_required')));
    expect(await rows()).toEqual([]);
    expect(filesUnder(t, 'tmp')).toEqual([]);
    expect(await storedMedia(t)).toEqual([]);
  });

  it('sanitises file names: no path or quotes (control characters are refused: input-text.e2e-spec); long names are cut keeping the extension', async () => {
    const send = async (headerValue: string, data = png(1, 1), kind = 'images') => {
      const { body, contentType } = rawMultipart(headerValue, data);
      const res = await editor
        .post(`/api/${kind}`)
        .set('Content-Type', contentType)
        .send(body)
        .expect(201);
      return res.body.filename as string;
    };
    expect(await send('../../etc/\\"evil\\" name.png')).toBe('_evil_ name.png');
    expect(await send("C:\\Users\\me\\it's <b>.png")).toBe('it_s _b_.png');
    expect(await send('Übersicht – März.png')).toBe('Übersicht – März.png');
    expect(await send('..')).toBe('image.png');
    const long = await send(`${'ä'.repeat(300)}.txt`, Buffer.from('x'), 'attachments');
    expect(Array.from(long)).toHaveLength(200);
    expect(long).toMatch(/^ä+\.txt$/);
  });

  describe('size limits', () => {
    it('refuses an image one byte over the limit with 413 and leaves nothing on disk', async () => {
      const data = Buffer.concat([png(1, 1), Buffer.alloc(IMAGE_LIMIT + 1 - png(1, 1).length)]);
      const res = await upload(editor, 'images', data, 'big.png').expect(413);
      expect(res.body).toEqual(problem(413, 'image_too_large', { limit: IMAGE_LIMIT }));
      expect(await rows()).toEqual([]);
      expect(filesUnder(t, 'tmp')).toEqual([]);
      expect(await storedMedia(t)).toEqual([]);
    });

    it('accepts an image of exactly the limit', async () => {
      const data = Buffer.concat([png(1, 1), Buffer.alloc(IMAGE_LIMIT - png(1, 1).length)]);
      await upload(editor, 'images', data, 'exact.png').expect(201);
    });

    it('refuses a body far over the limit before reading it', async () => {
      const data = Buffer.alloc(ATTACHMENT_LIMIT * 3, 7);
      const res = await upload(editor, 'attachments', data, 'huge.bin').expect(413);
      expect(res.body).toEqual(problem(413, 'attachment_too_large', { limit: ATTACHMENT_LIMIT }));
      expect(filesUnder(t, 'tmp')).toEqual([]);
      expect(await storedMedia(t)).toEqual([]);
    });

    it('counts the bytes of a chunked body without Content-Length', async () => {
      const { body, contentType } = rawMultipart('c.bin', Buffer.alloc(ATTACHMENT_LIMIT + 10, 1));
      const req = editor.post('/api/attachments').set('Content-Type', contentType);
      // Written in pieces, superagent sends Transfer-Encoding: chunked with no Content-Length.
      for (let i = 0; i < body.length; i += 16_384) req.write(body.subarray(i, i + 16_384));
      const res = await req.expect(413);
      expect(res.headers['content-length']).not.toBe(String(body.length));
      expect(res.body).toEqual(problem(413, 'attachment_too_large', { limit: ATTACHMENT_LIMIT }));
      expect(filesUnder(t, 'tmp')).toEqual([]);
      expect(await storedMedia(t)).toEqual([]);
    });
  });

  it('stores identical bytes once: each upload gets its own row, the file is shared', async () => {
    const data = png(3, 3);
    const first = await upload(editor, 'images', data, 'one.png').expect(201);
    const second = await upload(editor, 'images', data, 'two.png').expect(201);
    const third = await upload(editor, 'attachments', data, 'three.png').expect(201);
    expect(new Set([first.body.id, second.body.id, third.body.id]).size).toBe(3);
    expect([first.body.filename, second.body.filename]).toEqual(['one.png', 'two.png']);
    expect(await rows()).toHaveLength(3);
    expect(await storedMedia(t)).toEqual([sha256(data)]);
  });

  it('lists each kind newest first, paged, with the uploader', async () => {
    const other = await signedIn(t, 'admin');
    const a = await upload(editor, 'images', png(1, 1), 'a.png').expect(201);
    const b = await upload(other, 'images', png(1, 2), 'b.png').expect(201);
    const c = await upload(editor, 'images', png(1, 3), 'c.png').expect(201);
    const att = await upload(editor, 'attachments', Buffer.from('doc'), 'd.txt').expect(201);
    // The admin sees every item (the editor only its own: media-groups.e2e-spec).
    const page1 = await other.get('/api/images?limit=2').expect(200);
    expect(page1.body).toEqual({ items: [c.body, b.body], nextCursor: expect.any(String) });
    expect(page1.body.items[1].uploadedBy).toEqual({
      id: other.user!.id,
      username: other.user!.username,
      displayName: other.user!.username,
    });
    const page2 = await other
      .get(`/api/images?limit=2&cursor=${page1.body.nextCursor}`)
      .expect(200);
    expect(page2.body).toEqual({ items: [a.body], nextCursor: null });
    await editor.get('/api/attachments').expect(200, { items: [att.body], nextCursor: null });
    await editor.get(`/api/images/${a.body.id}`).expect(200, a.body);
    await editor.get(`/api/attachments/${att.body.id}`).expect(200, att.body);
    await editor
      .get(`/api/attachments/${a.body.id}`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'attachment_not_found')));
    await editor.get('/api/images?limit=0').expect(422);
    await editor.get('/api/images?cursor=nonsense!').expect(400);
    // A cursor of the right shape whose date is not a date is refused like any other bad cursor.
    const badDate = Buffer.from(JSON.stringify({ at: 'not-a-date', id: a.body.id })).toString(
      'base64url',
    );
    const refused = await editor.get(`/api/images?cursor=${badDate}`).expect(400);
    expect(refused.body).toEqual(problem(400, 'invalid_cursor'));
  });
});
