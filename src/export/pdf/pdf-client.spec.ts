import { loadConfig } from '../../common/config/app-config';
import { Problem } from '../../common/problems/problem';
import {
  FAKE_PDF,
  fakePdfService,
  FakePdfService,
  itWithChromium,
  pdfText,
  refusedUrl,
  startPdfService,
} from '../../../test/support/pdf';
import { PdfClient } from './pdf-client';

function client(env: Record<string, string>): PdfClient {
  return new PdfClient(loadConfig({ LOG_LEVEL: 'silent', ...env }).pdf);
}

async function problemOf(promise: Promise<unknown>): Promise<Problem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Problem)) throw new Error(`expected a Problem, got ${String(error)}`);
  return error;
}

const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>T</title></head><body><p>Grüße</p></body></html>';

describe('PdfClient', () => {
  let fake: FakePdfService | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('posts index.html with A4 geometry, background, outline and basic auth to the Gotenberg route', async () => {
    fake = await fakePdfService();
    const pdf = await client({
      PDF_SERVICE_URL: `${fake.url}/prefix`,
      PDF_SERVICE_USERNAME: 'kb',
      PDF_SERVICE_PASSWORD: 's3cret',
    }).render(HTML, { trace: 'req-1' });
    expect(pdf.equals(FAKE_PDF)).toBe(true);
    expect(fake.received).toHaveLength(1);
    const [req] = fake.received;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/prefix/forms/chromium/convert/html');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('kb:s3cret').toString('base64')}`);
    expect(req.headers['gotenberg-trace']).toBe('req-1');
    expect(req.files).toEqual([
      { field: 'files', filename: 'index.html', mimeType: 'text/html', content: HTML },
    ]);
    expect(req.fields).toEqual({
      paperWidth: '8.27',
      paperHeight: '11.69',
      marginTop: '0.787',
      marginBottom: '0.787',
      marginLeft: '0.787',
      marginRight: '0.787',
      printBackground: 'true',
      preferCssPageSize: 'true',
      generateDocumentOutline: 'true',
    });
  });

  it("sends header.html and footer.html (title, date, Chromium's page-number classes) when asked", async () => {
    fake = await fakePdfService();
    await client({ PDF_SERVICE_URL: fake.url }).render(HTML, {
      headerFooter: { title: 'Q3 <report> & "notes"', date: '2026-11-23' },
    });
    const files = fake.received[0].files;
    expect(files.map((f) => f.filename)).toEqual(['index.html', 'header.html', 'footer.html']);
    const [, header, footer] = files;
    expect(header.content).toContain(
      '<span class="kb-title">Q3 &lt;report&gt; &amp; &quot;notes&quot;</span>',
    );
    expect(header.content).toContain('<span class="kb-date">2026-11-23</span>');
    expect(footer.content).toContain(
      'Page <span class="pageNumber"></span> of <span class="totalPages"></span>',
    );
    // Chromium's templates load nothing: the styles are inline, with a readable font size.
    for (const file of [header, footer]) {
      expect(file.content).toMatch(/font: 8pt/);
      expect(file.content).not.toMatch(/<link|<script|url\(/);
    }
  });

  it('sends no credentials when none are configured', async () => {
    fake = await fakePdfService();
    await client({ PDF_SERVICE_URL: fake.url }).render(HTML);
    expect(fake.received[0].headers.authorization).toBeUndefined();
    expect(fake.received[0].path).toBe('/forms/chromium/convert/html');
  });

  it('answers 503 pdf_service_not_configured, saying how to configure it, without PDF_SERVICE_URL', async () => {
    const problem = await problemOf(client({}).render(HTML));
    expect(problem).toMatchObject({ status: 503, code: 'pdf_service_not_configured' });
    expect(problem.detail).toMatch(/PDF_SERVICE_URL/);
    expect(problem.detail).toMatch(/npm run pdf-service/);
  });

  it('maps a refused connection to 502 pdf_service_failed', async () => {
    const problem = await problemOf(client({ PDF_SERVICE_URL: await refusedUrl() }).render(HTML));
    expect(problem).toMatchObject({ status: 502, code: 'pdf_service_failed', headers: {} });
  });

  it.each([500, 400, 404])('maps an upstream %i to 502 pdf_service_failed', async (status) => {
    fake = await fakePdfService((_req, res) =>
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end('boom at /internal/path'),
    );
    const problem = await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML));
    expect(problem).toMatchObject({ status: 502, code: 'pdf_service_failed' });
    expect(problem.detail).not.toMatch(/internal/);
  });

  it('hints at the credentials when the service answers 401', async () => {
    fake = await fakePdfService((_req, res) => res.writeHead(401).end());
    const problem = await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML));
    expect(problem).toMatchObject({ status: 502, code: 'pdf_service_failed' });
    expect(problem.detail).toMatch(/PDF_SERVICE_USERNAME/);
  });

  it('maps a 200 that is not a PDF to 502', async () => {
    fake = await fakePdfService((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>login</html>'),
    );
    expect(await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML))).toMatchObject({
      status: 502,
      code: 'pdf_service_failed',
    });
  });

  it('maps a service that does not answer in PDF_SERVICE_TIMEOUT_MS to 504 pdf_service_timeout', async () => {
    fake = await fakePdfService(() => undefined);
    const started = Date.now();
    const problem = await problemOf(
      client({ PDF_SERVICE_URL: fake.url, PDF_SERVICE_TIMEOUT_MS: '300' }).render(HTML),
    );
    expect(problem).toMatchObject({ status: 504, code: 'pdf_service_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('applies the timeout to the whole answer, not to each chunk', async () => {
    fake = await fakePdfService((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf' });
      res.write('%PDF-1.4\n');
      const timer = setInterval(
        () => (res.writableEnded ? clearInterval(timer) : res.write('% more\n')),
        50,
      );
      res.on('close', () => clearInterval(timer));
    });
    expect(
      await problemOf(
        client({ PDF_SERVICE_URL: fake.url, PDF_SERVICE_TIMEOUT_MS: '400' }).render(HTML),
      ),
    ).toMatchObject({ status: 504, code: 'pdf_service_timeout' });
  });

  it('maps 503 to 503 pdf_service_overloaded and passes Retry-After through', async () => {
    fake = await fakePdfService((_req, res) =>
      res.writeHead(503, { 'Retry-After': '17' }).end('Service Unavailable'),
    );
    const problem = await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML));
    expect(problem).toMatchObject({
      status: 503,
      code: 'pdf_service_overloaded',
      headers: { 'Retry-After': '17' },
    });
  });

  it('maps 429 to 503 pdf_service_overloaded with a default Retry-After when the service gives none or a bad one', async () => {
    fake = await fakePdfService((_req, res) => res.writeHead(429).end());
    expect(await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML))).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
    });
    await fake.close();
    fake = await fakePdfService((_req, res) =>
      res.writeHead(503, { 'Retry-After': 'soon, maybe' }).end(),
    );
    expect(await problemOf(client({ PDF_SERVICE_URL: fake.url }).render(HTML))).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
    });
  });

  it('stops the upstream request when the caller aborts', async () => {
    fake = await fakePdfService(() => undefined);
    const controller = new AbortController();
    const pending = problemOf(
      client({ PDF_SERVICE_URL: fake.url }).render(HTML, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ status: 502, code: 'pdf_service_failed' });
  });

  describe('with the real Chromium-backed scripts/pdf-service.js', () => {
    itWithChromium(
      'converts HTML to a PDF whose text is readable, with remote references blocked',
      async () => {
        const service = await startPdfService({
          PDF_SERVICE_USERNAME: 'svc',
          PDF_SERVICE_PASSWORD: 'pw',
        });
        try {
          const html =
            '<!doctype html><html><head><meta charset="utf-8"><title>Real</title><style>@page { size: A4; margin: 20mm }</style></head>' +
            '<body><h1>Quarterly report for ACME Ltd.</h1><p>Grüße aus Köln</p><img src="http://127.0.0.1:9/x.png" alt=""></body></html>';
          const pdf = await client({
            PDF_SERVICE_URL: service.url,
            PDF_SERVICE_USERNAME: 'svc',
            PDF_SERVICE_PASSWORD: 'pw',
          }).render(html);
          expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
          const text = await pdfText(pdf);
          expect(text).toContain('Quarterly report for ACME Ltd.');
          expect(text).toContain('Grüße aus Köln');
          expect(service.output()).toMatch(/"blockedRequests":1/);

          const health = await fetch(`${service.url}/health`);
          expect(health.status).toBe(200);
          expect(await health.json()).toEqual({
            status: 'up',
            details: { chromium: { status: 'up', timestamp: expect.any(String) } },
          });
          const missing = await fetch(`${service.url}/forms/chromium/convert/html`, {
            method: 'POST',
            headers: { authorization: `Basic ${Buffer.from('svc:pw').toString('base64')}` },
            body: new FormData(),
          });
          expect([missing.status, await missing.text()]).toEqual([
            400,
            "Invalid form data: form file 'index.html' is required",
          ]);

          const wrong = await problemOf(client({ PDF_SERVICE_URL: service.url }).render(html));
          expect(wrong).toMatchObject({ status: 502, code: 'pdf_service_failed' });
        } finally {
          await service.stop();
        }
      },
      60_000,
    );

    itWithChromium(
      'answers 503 with Retry-After when over capacity, which the client maps to pdf_service_overloaded',
      async () => {
        const service = await startPdfService({
          PDF_SERVICE_CONCURRENCY: '1',
          PDF_SERVICE_QUEUE: '0',
        });
        try {
          // One slot and no queue: of four simultaneous conversions the first runs, the rest are refused.
          const pdfClient = client({ PDF_SERVICE_URL: service.url });
          const results = await Promise.allSettled(
            Array.from({ length: 4 }, () => pdfClient.render(HTML)),
          );
          const problems = results
            .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
            .map((r) => r.reason as Problem);
          expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
          expect(problems.length).toBeGreaterThan(0);
          for (const p of problems)
            expect(p).toMatchObject({
              status: 503,
              code: 'pdf_service_overloaded',
              headers: { 'Retry-After': '5' },
            });
        } finally {
          await service.stop();
        }
      },
      60_000,
    );
  });
});
