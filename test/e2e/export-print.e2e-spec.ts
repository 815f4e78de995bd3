import { createPage } from '../support/pages';
import { FAKE_PDF, fakePdfService, FakePdfService, refusedUrl } from '../support/pdf';
import { fieldErrors, problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  testPng,
  UploadedMedia,
  uploadImage,
} from '../support/export-fixtures';

type Mode = 'ok' | 'fail' | 'hang' | 'overloaded' | 'throttled';

const OFFER = [
  'Dear {{customer}},',
  '',
  'this offer comes from {{site_name}}.',
  '',
  '![Logo](IMAGE)',
  '',
  '| Item | Price |',
  '|---|---|',
  '| Support | 100 |',
  '',
  '<!-- pagebreak -->',
  '',
  '## Terms',
  '',
  '```',
  '<!-- pagebreak -->',
  'code stays',
  '```',
  '',
  '![remote](https://tracker.example.com/pixel.png)',
].join('\n');

describe('export: print preview and PDF', () => {
  let t: TestApp;
  let fake: FakePdfService;
  let mode: Mode = 'ok';
  let admin: Client;
  let editor: Client;
  let reader: Client;
  let image: UploadedMedia;

  beforeAll(async () => {
    fake = await fakePdfService((_req, res) => {
      if (mode === 'ok') res.writeHead(200, { 'Content-Type': 'application/pdf' }).end(FAKE_PDF);
      else if (mode === 'fail')
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('chromium crashed at /srv/x');
      else if (mode === 'overloaded')
        res.writeHead(503, { 'Retry-After': '9' }).end('Service Unavailable');
      else if (mode === 'throttled') res.writeHead(429).end();
      // 'hang': never answer
    });
    t = await createTestApp({ PDF_SERVICE_URL: fake.url, PDF_SERVICE_TIMEOUT_MS: '400' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(async () => {
    await t.reset();
    mode = 'ok';
    fake.received.length = 0;
    admin = await signedIn(t, 'admin');
    [editor, reader] = await Promise.all([signedIn(t, 'editor'), signedIn(t, 'reader')]);
    await createGroup(t, 'finance');
    image = await uploadImage(admin, testPng(3), 'logo.png');
    await setSiteVariables(admin, { site_name: 'KB Inc', other_site: 'unused' });
    await createPage(admin, 'docs/offer', {
      title: 'Offer & "Terms"',
      content: OFFER.replace('IMAGE', image.url),
      variables: { customer: 'Default Corp', unused_var: 'never referenced' },
    });
    await createPage(admin, 'secret/plan', {
      title: 'Plan',
      content: 'For {{site_name}} only',
      groups: ['finance'],
    });
  });

  async function preview(client: Client, slug: string, body?: unknown): Promise<string> {
    const req = client.post(`/export/preview/${slug}`);
    const res = await (body === undefined ? req : req.send(body as object)).expect(200);
    return res.body.document as string;
  }

  describe('POST /export/preview', () => {
    it('answers the self-contained print document with saved values, private and uncached', async () => {
      const res = await editor.post('/export/preview/docs/offer').send({}).expect(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body)).toEqual(['document']);
      const doc = res.body.document as string;
      expect(
        doc.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">'),
      ).toBe(true);
      expect(doc).toContain('<title>Offer &amp; &quot;Terms&quot;</title>');
      expect(doc).toContain('<h1 class="kb-title">Offer &amp; &quot;Terms&quot;</h1>');
      expect(doc).toContain('<p>Dear Default Corp,</p>');
      expect(doc).toContain('this offer comes from KB Inc.');
      // The stored image is inlined byte for byte; the remote one is replaced by its alt text.
      expect(doc).toContain(
        `<img src="data:image/png;base64,${image.bytes.toString('base64')}" alt="Logo" />`,
      );
      expect(doc).toContain('<span class="kb-missing-image">[remote]</span>');
      // One embedded stylesheet with the page geometry, breaks, wrapping code and fixed tables.
      expect(doc.match(/<style>/g)).toHaveLength(1);
      expect(doc).toContain('@page { size: A4; margin: 20mm; }');
      expect(doc).toContain('hr.page-break { break-before: page;');
      expect(doc).toMatch(/pre \{[^}]*white-space: pre-wrap/);
      expect(doc).toMatch(/table \{[^}]*table-layout: fixed/);
      // The agreed marker became a page break; inside code it stays text.
      expect(doc.match(/<hr class="page-break" \/>/g)).toHaveLength(1);
      expect(doc).toContain('&lt;!-- pagebreak --&gt;\ncode stays');
      // Nothing variable-specific, no script, nothing loaded from elsewhere.
      expect(doc).not.toMatch(
        /\{\{|customer|<script|\son\w+=|<link|<iframe|url\(|@import|\/api\/images/i,
      );
      expect(doc).not.toMatch(/\s(src|href)="(?!data:|\/|#)/);
      expect(doc).not.toMatch(/\ssrc="(?!data:)/);
    });

    it('resolves overrides for this request only: stored values, revisions and later requests are unchanged', async () => {
      const before = await admin.get('/api/pages/docs/offer').expect(200);
      const doc = await preview(editor, 'docs/offer', {
        variables: { customer: 'ACME Ltd.', site_name: 'Override Inc' },
      });
      expect(doc).toContain('<p>Dear ACME Ltd.,</p>');
      expect(doc).toContain('this offer comes from Override Inc.');
      expect(doc).not.toContain('Default Corp');
      const after = await admin.get('/api/pages/docs/offer').expect(200);
      expect(after.body.variables).toEqual({
        customer: 'Default Corp',
        unused_var: 'never referenced',
      });
      expect(after.body.revision).toBe(before.body.revision);
      expect(after.headers.etag).toBe(before.headers.etag);
      expect((await admin.get('/api/pages/docs/offer/raw').expect(200)).text).toContain(
        'Dear {{customer}},',
      );
      expect((await admin.get('/api/variables').expect(200)).body).toEqual({
        variables: { site_name: 'KB Inc', other_site: 'unused' },
      });
      expect(await preview(editor, 'docs/offer')).toContain('<p>Dear Default Corp,</p>');
      const revisions: { n: number }[] = await t.dataSource.query(
        'SELECT COUNT(*) AS n FROM page_revisions',
      );
      expect(Number(revisions[0].n)).toBe(2);
    });

    it('keeps override values harmless: Markdown and HTML in a value are rendered and sanitised', async () => {
      const doc = await preview(editor, 'docs/offer', {
        variables: { customer: '<script>alert(1)</script><img src=x onerror=alert(2)>**Bold**' },
      });
      expect(doc).not.toMatch(/<script|onerror|alert\(/);
      expect(doc).toContain('<strong>Bold</strong>');
    });

    it('accepts an empty body, {} and {"variables": {}} as "saved values"', async () => {
      const saved = await preview(editor, 'docs/offer');
      expect(await preview(editor, 'docs/offer', {})).toBe(saved);
      expect(await preview(editor, 'docs/offer', { variables: {} })).toBe(saved);
    });

    it('lets readers print what they can see and hides what they cannot (404)', async () => {
      expect(await preview(reader, 'docs/offer')).toContain('Dear Default Corp');
      expect((await editor.post('/export/preview/secret/plan').send({}).expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
      const finance = await signedIn(t, 'reader', { groups: ['finance'] });
      expect(await preview(finance, 'secret/plan')).toContain('For KB Inc only');
      expect(await preview(admin, 'secret/plan')).toContain('For KB Inc only');
      expect((await editor.post('/export/preview/no/such/page').send({}).expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
      await admin.delete('/api/pages/docs/offer').expect(204);
      expect((await admin.post('/export/preview/docs/offer').send({}).expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
    });

    it('refuses malformed bodies with 400', async () => {
      const cases: [string, string, string][] = [
        ['application/json', '{"variables": ', 'invalid_json'],
        ['application/json', '[]', 'invalid_body'],
        ['application/json', '"text"', 'invalid_json'],
        ['application/json', '{"variables": []}', 'invalid_variables'],
        ['application/json', '{"variables": null}', 'invalid_variables'],
        ['application/json', '{"variables": "customer=x"}', 'invalid_variables'],
        ['application/json', '{"variables": 3}', 'invalid_variables'],
      ];
      for (const [type, body, code] of cases) {
        const res = await editor
          .post('/export/preview/docs/offer')
          .set('Content-Type', type)
          .send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
        expect(res.body).toEqual(problem(400, code));
      }
      // Another media type than JSON: 415.
      for (const [type, body] of [
        ['text/plain', 'variables=x'],
        ['application/x-www-form-urlencoded', 'variables%5Bcustomer%5D=x'],
      ]) {
        const res = await editor
          .post('/export/preview/docs/offer')
          .set('Content-Type', type)
          .send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 415 });
        expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
        expect(res.body).toEqual(problem(415, 'unsupported_media_type'));
      }
    });

    it('refuses unknown, unused and bad overrides with 422, one field problem per bad name', async () => {
      const res = await editor
        .post('/export/preview/docs/offer')
        .send({
          variables: {
            nope: 'x',
            unused_var: 'x',
            other_site: 'x',
            customer: 5,
            site_name: 'y'.repeat(10_001),
          },
        })
        .expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [
            { field: 'variables.nope', code: 'unknown_variable', message: expect.any(String) },
            { field: 'variables.unused_var', code: 'unused_variable', message: expect.any(String) },
            { field: 'variables.other_site', code: 'unused_variable', message: expect.any(String) },
            {
              field: 'variables.customer',
              code: 'not_a_string',
              message: 'A variable value must be a string.',
            },
            {
              field: 'variables.site_name',
              code: 'value_too_long',
              message: 'A variable value may have at most 10000 characters.',
            },
          ],
        }),
      );
      for (const value of [null, true, ['a'], { a: 'b' }]) {
        expect(
          (
            await editor
              .post('/export/preview/docs/offer')
              .send({ variables: { customer: value } })
              .expect(422)
          ).body,
        ).toEqual(fieldErrors({ field: 'variables.customer', code: 'not_a_string' }));
      }
      expect(
        (
          await editor
            .post('/export/preview/docs/offer')
            .send({ variables: {}, extra: 1 })
            .expect(422)
        ).body,
      ).toEqual(
        problem(422, 'validation_failed', {
          errors: [{ field: 'extra', code: 'unknown_field', message: expect.any(String) }],
        }),
      );
      // Exactly 10,000 characters is fine.
      expect(
        await preview(editor, 'docs/offer', { variables: { customer: 'z'.repeat(10_000) } }),
      ).toContain('z'.repeat(10_000));
    });

    it('accepts browser sessions only: anonymous and bearer callers get 401', async () => {
      expect(
        (await anonymous(t).post('/export/preview/docs/offer').send({}).expect(401)).body,
      ).toEqual(problem(401, 'unauthenticated'));
      const bearer = await admin.withToken();
      expect((await bearer.post('/export/preview/docs/offer').send({}).expect(401)).body).toEqual(
        problem(401, 'session_required'),
      );
      const crossSite = await t
        .http()
        .post('/export/preview/docs/offer')
        .set('Cookie', editor.auth.cookie!)
        .set('Origin', 'https://evil.example')
        .send({})
        .expect(403);
      expect(crossSite.body).toEqual(problem(403, 'cross_origin_refused'));
    });
  });

  describe('PDF', () => {
    function pdf(client: Client, method: 'get' | 'post', path: string, body?: object) {
      const req = method === 'get' ? client.get(path) : client.post(path).send(body ?? {});
      return req.buffer(true).parse(binary);
    }

    it('POST sends exactly the preview document to the PDF service and answers the PDF, private and uncached', async () => {
      const overrides = { variables: { customer: 'ACME Ltd.' } };
      const res = await pdf(editor, 'post', '/export/pdf/docs/offer', overrides).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="offer.pdf"; filename*=UTF-8''offer.pdf`,
      );
      expect((res.body as Buffer).equals(FAKE_PDF)).toBe(true);
      expect(fake.received).toHaveLength(1);
      const sent = fake.received[0];
      expect(sent.path).toBe('/forms/chromium/convert/html');
      // The header (title, date) and footer (page numbers) ride along (PDF_HEADER_FOOTER=true).
      expect(sent.files.map((f) => f.filename)).toEqual([
        'index.html',
        'header.html',
        'footer.html',
      ]);
      expect(sent.files[1].content).toContain(
        '<span class="kb-title">Offer &amp; &quot;Terms&quot;</span>',
      );
      expect(sent.fields).toMatchObject({
        paperWidth: '8.27',
        paperHeight: '11.69',
        printBackground: 'true',
        generateDocumentOutline: 'true',
      });
      expect(sent.files[0].content).toBe(await preview(editor, 'docs/offer', overrides));
      expect(sent.files[0].content).toContain('Dear ACME Ltd.,');
    });

    it('GET uses the saved values and ignores query parameters', async () => {
      await pdf(
        reader,
        'get',
        '/export/pdf/docs/offer?customer=Evil&variables%5Bcustomer%5D=Evil&variables=%7B%7D',
      ).expect(200);
      expect(fake.received).toHaveLength(1);
      expect(fake.received[0].files[0].content).toBe(await preview(reader, 'docs/offer'));
      expect(fake.received[0].files[0].content).not.toContain('Evil');
    });

    it('validates before calling the PDF service (400, 404, 422) and never calls it then', async () => {
      expect(
        (
          await editor
            .post('/export/pdf/docs/offer')
            .set('Content-Type', 'application/json')
            .send('{"variables": [1]}')
            .expect(400)
        ).body,
      ).toEqual(problem(400, 'invalid_variables'));
      expect(
        (
          await editor
            .post('/export/pdf/docs/offer')
            .set('Content-Type', 'application/json')
            .send('nope')
            .expect(400)
        ).body,
      ).toEqual(problem(400, 'invalid_json'));
      expect(
        (
          await editor
            .post('/export/pdf/docs/offer')
            .send({ variables: { nope: 'x' } })
            .expect(422)
        ).body,
      ).toEqual(fieldErrors({ field: 'variables.nope', code: 'unknown_variable' }));
      expect((await editor.post('/export/pdf/secret/plan').send({}).expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
      expect((await editor.get('/export/pdf/secret/plan').expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
      expect(fake.received).toHaveLength(0);
    });

    it('accepts browser sessions only', async () => {
      const bearer = await admin.withToken();
      expect((await bearer.get('/export/pdf/docs/offer').expect(401)).body).toEqual(
        problem(401, 'session_required'),
      );
      expect((await bearer.post('/export/pdf/docs/offer').send({}).expect(401)).body).toEqual(
        problem(401, 'session_required'),
      );
      expect((await anonymous(t).get('/export/pdf/docs/offer').expect(401)).body).toEqual(
        problem(401, 'unauthenticated'),
      );
      expect(fake.received).toHaveLength(0);
    });

    it('maps a failing service to 502, a slow one to 504 and an overloaded one to 503 with Retry-After', async () => {
      mode = 'fail';
      const failed = await editor.post('/export/pdf/docs/offer').send({}).expect(502);
      expect(failed.body).toEqual(problem(502, 'pdf_service_failed'));
      expect(failed.body.detail).not.toMatch(/srv|chromium crashed/);

      mode = 'hang';
      const started = Date.now();
      expect((await editor.get('/export/pdf/docs/offer').expect(504)).body).toEqual(
        problem(504, 'pdf_service_timeout'),
      );
      // The timeout answered, not the hanging service (it never answers); loose for loaded runners.
      expect(Date.now() - started).toBeLessThan(20_000);

      mode = 'overloaded';
      const busy = await editor
        .post('/export/pdf/docs/offer')
        .send({ variables: { customer: 'X' } })
        .expect(503);
      expect(busy.headers['retry-after']).toBe('9');
      expect(busy.body).toEqual(problem(503, 'pdf_service_overloaded'));

      mode = 'throttled';
      const throttled = await editor.get('/export/pdf/docs/offer').expect(503);
      expect(throttled.headers['retry-after']).toBe('5');
      expect(throttled.body).toEqual(problem(503, 'pdf_service_overloaded'));
      for (const res of [failed, busy, throttled])
        expect(res.headers['content-disposition']).toBeUndefined();
    });
  });

  describe('links in the print document', () => {
    it("point at kb's console (KB_PUBLIC_URL, else the request's origin); attachments at their download", async () => {
      const content = (attachment: string) =>
        [
          'See [setup](setup#install), [Über](/handbuch/über), the [manual](' + attachment + '),',
          '[the API](/api/pages/x), [a sibling file](notes.txt?v=1), [top](#top) and [mail](mailto:a@b.example).',
        ].join('\n');
      const hrefs = (doc: string) => [...doc.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

      /** Prints a page with the links above as `writer`; answers the document's hrefs. */
      const printedLinks = async (writer: Client) => {
        const file = await writer
          .post('/api/attachments')
          .attach('file', Buffer.from('id,name\n'), 'manual.csv')
          .expect(201);
        await createPage(writer, 'guide/intro', {
          title: 'Intro',
          content: content(file.body.url),
        });
        const res = await writer.post('/export/preview/guide/intro').send({}).expect(200);
        return { hrefs: hrefs(res.body.document as string), attachmentId: file.body.id as string };
      };

      const local = (await printedLinks(editor)).hrefs;
      const origin = local[0].replace(/\/wiki\/.*$/, '');
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(local[0]).toBe(`${origin}/wiki/guide/setup#install`);

      const other = await createTestApp({ KB_PUBLIC_URL: 'https://wiki.example.com/kb/' });
      try {
        const { hrefs: links, attachmentId } = await printedLinks(await signedIn(other, 'editor'));
        expect(links).toEqual([
          'https://wiki.example.com/kb/wiki/guide/setup#install',
          'https://wiki.example.com/kb/wiki/handbuch/%C3%BCber',
          `https://wiki.example.com/kb/api/attachments/${attachmentId}/content`,
          'https://wiki.example.com/kb/api/pages/x',
          // (a page link: the query is not part of a slug)
          'https://wiki.example.com/kb/wiki/guide/notes.txt',
          '#top',
          'mailto:a@b.example',
        ]);
      } finally {
        await other.close();
      }
    });
  });

  describe('without a reachable or configured PDF service', () => {
    it('answers 502 when the service refuses connections and 503 with instructions when none is configured', async () => {
      for (const [env, status, code] of [
        [{ PDF_SERVICE_URL: await refusedUrl() }, 502, 'pdf_service_failed'],
        [{}, 503, 'pdf_service_not_configured'],
      ] as const) {
        const other = await createTestApp(env);
        try {
          const client = await signedIn(other, 'admin');
          await createPage(client, 'p', {
            title: 'P',
            content: 'Hello {{who}}',
            variables: { who: 'world' },
          });
          const post = await client
            .post('/export/pdf/p')
            .send({ variables: { who: 'you' } })
            .expect(status);
          expect(post.body).toEqual(problem(status, code));
          expect((await client.get('/export/pdf/p').expect(status)).body).toEqual(
            problem(status, code),
          );
          if (code === 'pdf_service_not_configured')
            expect(post.body.detail).toMatch(/PDF_SERVICE_URL/);
          // Validation still comes first, and the preview needs no PDF service.
          expect(
            (
              await client
                .post('/export/pdf/p')
                .send({ variables: { nope: 'x' } })
                .expect(422)
            ).body,
          ).toEqual(fieldErrors({ field: 'variables.nope', code: 'unknown_variable' }));
          expect(
            (
              await client
                .post('/export/preview/p')
                .send({ variables: { who: 'you' } })
                .expect(200)
            ).body.document,
          ).toContain('Hello you');
        } finally {
          await other.close();
        }
      }
    });
  });
});
