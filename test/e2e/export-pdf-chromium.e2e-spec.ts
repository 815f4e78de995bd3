import { createPage } from '../support/pages';
import {
  itWithChromium,
  readPdf,
  RunningPdfService,
  startPdfService,
  CHROMIUM_AVAILABLE,
} from '../support/pdf';
import { createTestApp, TestApp } from '../support/test-app';
import { createGroup, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  testPng,
  uploadAttachment,
  uploadImage,
} from '../support/export-fixtures';

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

  itWithChromium(
    'links pages to their console URL and attachments to their download URL; images stay inlined',
    async () => {
      const admin = await signedIn(t, 'admin');
      const image = await uploadImage(admin, testPng(3, 16), 'logo.png');
      const manual = await uploadAttachment(admin, Buffer.from('%PDF-1.4 manual'), 'manual.pdf');
      await createPage(admin, 'guide/setup', { title: 'Setup' });
      await createPage(admin, 'guide/intro', {
        title: 'Intro',
        content: `Read [the setup](setup#install), the [manual](${manual.url}) and [elsewhere](https://example.org/x).\n\n![logo](${image.url})`,
      });
      const res = await admin.get('/export/pdf/guide/intro').buffer(true).parse(binary).expect(200);
      const pdf = await readPdf(res.body as Buffer);
      const origin = /^http:\/\/127\.0\.0\.1:\d+$/;
      const [page, attachment, external] = pdf.links;
      expect(pdf.links).toHaveLength(3);
      expect(new URL(page).origin).toMatch(origin);
      expect(page.replace(new URL(page).origin, '')).toBe('/wiki/guide/setup#install');
      expect(attachment.replace(new URL(attachment).origin, '')).toBe(
        `/api/attachments/${manual.id}/content`,
      );
      expect(new URL(attachment).origin).toBe(new URL(page).origin);
      expect(external).toBe('https://example.org/x');
      // The image is in the PDF itself; nothing points at kb's image URL.
      expect(pdf.images).toContainEqual({ width: 16, height: 16 });
      expect(pdf.links.join(' ')).not.toMatch(/document\.invalid|\/api\/images\//);
    },
    90_000,
  );

  itWithChromium(
    'prints the title and date in the header and page numbers in the footer of every page',
    async () => {
      const admin = await signedIn(t, 'admin');
      await createPage(admin, 'guide/long', {
        title: 'Handbook chapter',
        content:
          'First page.\n\n<!-- pagebreak -->\n\nSecond page.\n\n<!-- pagebreak -->\n\nThird page.',
      });
      const res = await admin.get('/export/pdf/guide/long').buffer(true).parse(binary).expect(200);
      const pdf = await readPdf(res.body as Buffer);
      expect(pdf.pages).toBe(3);
      const text = pdf.text.replace(/\s+/g, ' ');
      const now = new Date();
      const today = [now.getFullYear(), now.getMonth() + 1, now.getDate()]
        .map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0'))
        .join('-');
      for (const n of [1, 2, 3]) expect(text).toContain(`Page ${n} of 3`);
      // The title: once in every header and once as the heading of the first page.
      expect(text.split('Handbook chapter').length - 1).toBe(4);
      expect(text.split(today).length - 1).toBe(3);

      const plain = await createTestApp({
        PDF_SERVICE_URL: service!.url,
        PDF_HEADER_FOOTER: 'false',
      });
      try {
        const other = await signedIn(plain, 'admin');
        await createPage(other, 'guide/long', { title: 'Handbook chapter', content: 'Only.' });
        const bare = await other
          .get('/export/pdf/guide/long')
          .buffer(true)
          .parse(binary)
          .expect(200);
        const bareText = (await readPdf(bare.body as Buffer)).text.replace(/\s+/g, ' ');
        expect(bareText).toContain('Only.');
        expect(bareText).not.toMatch(/Page 1 of|\d{4}-\d{2}-\d{2}/);
        expect(bareText.split('Handbook chapter').length - 1).toBe(1);
      } finally {
        await plain.close();
      }
    },
    90_000,
  );
  itWithChromium(
    'prints includes filled for the person printing: the excerpt, never a page they may not see',
    async () => {
      const admin = await signedIn(t, 'admin');
      const reader = await signedIn(t, 'reader');
      await createPage(admin, 'inc/shared', {
        title: 'Shared',
        content: 'Not in the excerpt.\n\n:::excerpt steps\nDrain the node before the restart.\n:::',
      });
      await createGroup(t, 'vault');
      await createPage(admin, 'inc/secret', {
        content: 'Confidential figures.',
        groups: ['vault'],
      });
      await createPage(admin, 'inc/runbook', {
        title: 'Runbook with includes',
        content: 'Before.\n\n![[inc/shared#steps]]\n\n![[inc/secret]]\n\nAfter.',
      });
      const pdf = await reader
        .get('/export/pdf/inc/runbook')
        .buffer(true)
        .parse(binary)
        .expect(200);
      const text = (await readPdf(pdf.body as Buffer)).text.replace(/\s+/g, ' ');
      expect(text).toContain('Before. Drain the node before the restart.');
      expect(text).not.toContain('Not in the excerpt');
      expect(text).toContain('Included content is not available.');
      expect(text).not.toContain('Confidential');
      expect(text).toContain('After.');
    },
    90_000,
  );
});
