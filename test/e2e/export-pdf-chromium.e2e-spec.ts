import { createPage } from '../support/pages';
import {
  itWithChromium,
  readPdf,
  RunningPdfService,
  startPdfService,
  CHROMIUM_AVAILABLE,
} from '../support/pdf';
import { createTestApp, TestApp } from '../support/test-app';
import { signedIn } from '../support/users';
import { binary, setSiteVariables, testPng, uploadImage } from './export-fixtures';

/** The whole chain with the real Chromium-backed service from scripts/pdf-service.js. */
describe('export: real PDFs from the Chromium-backed PDF service', () => {
  let service: RunningPdfService | undefined;
  let t: TestApp;

  beforeAll(async () => {
    if (!CHROMIUM_AVAILABLE) return;
    service = await startPdfService();
    t = await createTestApp({ PDF_SERVICE_URL: service.url, PDF_SERVICE_TIMEOUT_MS: '30000' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await service?.stop();
  });

  itWithChromium(
    'renders the override value, saved values, the title and the inlined image into a real PDF',
    async () => {
      const admin = await signedIn(t, 'admin');
      const image = await uploadImage(admin, testPng(5, 16), 'logo.png');
      await setSiteVariables(admin, { site_name: 'Knowledge Base Inc' });
      await createPage(admin, 'offers/acme', {
        title: 'Service offer',
        content: `Prepared for {{customer}} by {{site_name}}.\n\n![logo](${image.url})\n\n<!-- pagebreak -->\n\n## Terms\n\nPayable in 30 days.`,
        variables: { customer: 'Default Corp' },
      });

      const posted = await admin
        .post('/export/pdf/offers/acme')
        .send({ variables: { customer: 'Zebra Logistics GmbH' } })
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(posted.headers['content-type']).toBe('application/pdf');
      expect(posted.headers['cache-control']).toBe('private, no-store');
      const pdf = await readPdf(posted.body as Buffer);
      const text = pdf.text.replace(/\s+/g, ' ');
      expect(text).toContain('Service offer');
      expect(text).toContain('Prepared for Zebra Logistics GmbH by Knowledge Base Inc.');
      expect(text).not.toContain('Default Corp');
      expect(pdf.pages).toBe(2);
      expect(pdf.images).toContainEqual({ width: 16, height: 16 });

      const saved = await admin
        .get('/export/pdf/offers/acme?customer=Nope')
        .buffer(true)
        .parse(binary)
        .expect(200);
      const savedText = (await readPdf(saved.body as Buffer)).text.replace(/\s+/g, ' ');
      expect(savedText).toContain('Prepared for Default Corp by Knowledge Base Inc.');
      expect(savedText).not.toMatch(/Zebra|Nope/);
      // The service saw only self-contained HTML: nothing was requested from the network.
      expect(service!.output()).not.toMatch(/"blockedRequests":[1-9]/);
    },
    90_000,
  );

  itWithChromium(
    'prints callouts with their titles and collapsible sections open, never the markers',
    async () => {
      const admin = await signedIn(t, 'admin');
      await createPage(admin, 'guide/alerts', {
        title: 'Alerts',
        content:
          '> [!NOTE]\n> Useful information.\n\n> [!CAUTION] Hot surface\n> Do not touch.\n\n<details>\n<summary>Details</summary>\n\nHidden text.\n\n</details>',
      });
      const res = await admin
        .get('/export/pdf/guide/alerts')
        .buffer(true)
        .parse(binary)
        .expect(200);
      const text = (await readPdf(res.body as Buffer)).text.replace(/\s+/g, ' ');
      expect(text).toContain('Note Useful information.');
      expect(text).toContain('Hot surface Do not touch.');
      expect(text).toContain('Hidden text.');
      expect(text).not.toContain('[!');
    },
    90_000,
  );
});
