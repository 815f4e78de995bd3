import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AttachmentTextIndexer } from '../../src/media/public-api';
import { docxWithText, odtWithText, pdfWithText } from '../support/documents';
import { binary } from '../support/export-fixtures';
import {
  CHROMIUM_AVAILABLE,
  itWithChromium,
  RunningPdfService,
  startPdfService,
} from '../support/pdf';
import { upload } from '../support/media-support';
import { createPage, search, SearchItem } from '../support/search-support';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

const udhr = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'search', 'udhr-article-1.json'), 'utf8'),
) as { texts: Record<string, string> };

interface AttachmentItem extends SearchItem {
  attachment?: { id: string; filename: string };
  usedOn?: { slug: string; title: string }[];
}

/**
 * Issue 32 item 6: the text of attached PDF, DOCX, ODT, TXT and Markdown files is extracted
 * (in a child process, bounded) and searchable; a hit is the attachment with a page that uses
 * it, only for callers who may see such a page. The same queries and expectations on SQLite
 * and MariaDB.
 */
describe('search in attachments', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;
  let insider: Client;
  const ids: Record<string, string> = {};

  const indexed = () => t.get(AttachmentTextIndexer).idle();
  const attach = async (data: Buffer, filename: string): Promise<string> => {
    const res = await upload(editor, 'attachments', data, filename).expect(201);
    return res.body.id as string;
  };
  const hits = async (client: Client, q: string, extra = ''): Promise<AttachmentItem[]> =>
    (await search(client, q, extra)).items as AttachmentItem[];
  const attachmentHits = async (client: Client, q: string, extra = '') =>
    (await hits(client, q, extra)).filter((i) => i.attachment);
  const status = async (id: string): Promise<{ status: string; detail: string | null }> => {
    const rows = (await t.dataSource.query(
      'SELECT status, detail FROM attachment_texts WHERE media_id = ?',
      [id],
    )) as { status: string; detail: string | null }[];
    return rows[0];
  };

  beforeAll(async () => {
    t = await createTestApp();
    await createGroup(t, 'legal');
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
    insider = await signedIn(t, 'reader', { groups: ['legal'] });

    ids.pdf = await attach(
      pdfWithText(['Quarterly zanzibar revenue report', 'Prepared by the finance team']),
      'q3-report.pdf',
    );
    ids.docx = await attach(
      docxWithText(['Onboarding checklist', 'Ask for a quokka badge']),
      'onboarding.docx',
    );
    ids.odt = await attach(
      odtWithText(['Meeting minutes', 'We agreed on the marzipan plan']),
      'minutes.odt',
    );
    ids.txt = await attach(
      Buffer.from('Server inventory: the kestrel rack holds twelve nodes.\n'),
      'inventory.txt',
    );
    ids.md = await attach(
      Buffer.from('# Runbook\n\nRestart the **wombat** queue first.\n'),
      'runbook.md',
    );
    ids.ja = await attach(Buffer.from(udhr.texts.ja, 'utf8'), 'udhr-ja.txt');
    ids.secret = await attach(
      pdfWithText(['Settlement terms for the narwhal case']),
      'settlement.pdf',
    );
    ids.unused = await attach(Buffer.from('The ocelot file is on no page.\n'), 'unused.txt');
    ids.shared = await attach(Buffer.from('The pangolin budget, shared.\n'), 'budget.csv');
    ids.corrupt = await attach(
      Buffer.from('%PDF-1.4\nthis is not really a PDF at all\n'),
      'broken.pdf',
    );
    ids.zip = await attach(Buffer.from('PK\u0003\u0004not a document'), 'archive.zip');

    const link = (id: string, name: string) => `[${name}](/api/attachments/${id}/content)`;
    await createPage(editor, {
      slug: 'finance/q3',
      title: 'Q3 finance',
      content: `# Q3\n\n${link(ids.pdf, 'report')}`,
      tags: ['finance'],
    });
    await createPage(editor, {
      slug: 'people/onboarding',
      title: 'Onboarding',
      content: `${link(ids.docx, 'checklist')}\n\n${link(ids.odt, 'minutes')}`,
    });
    await createPage(editor, {
      slug: 'ops/inventory',
      title: 'Inventory',
      content: `${link(ids.txt, 'inventory')} ${link(ids.md, 'runbook')} ${link(ids.ja, 'ja')}`,
    });
    await createPage(admin, {
      slug: 'legal/settlement',
      title: 'Settlement',
      groups: ['legal'],
      content: link(ids.secret, 'terms'),
    });
    // One file on a hidden page and on a visible one: the hit names only the visible one.
    await createPage(admin, {
      slug: 'legal/budget',
      title: 'Legal budget',
      groups: ['legal'],
      content: link(ids.shared, 'budget'),
    });
    await createPage(editor, {
      slug: 'plans/budget',
      title: 'Budget plan',
      content: link(ids.shared, 'budget'),
    });
    await createPage(editor, {
      slug: 'misc/files',
      title: 'Files',
      content: `${link(ids.corrupt, 'broken')} ${link(ids.zip, 'zip')}`,
    });
    await indexed();
  }, 120_000);
  afterAll(() => t.close());

  it('finds the text of PDF, DOCX, ODT, TXT and Markdown files, with a page that uses each', async () => {
    const cases: [string, string, string, string][] = [
      ['zanzibar', ids.pdf, 'q3-report.pdf', 'finance/q3'],
      ['quokka', ids.docx, 'onboarding.docx', 'people/onboarding'],
      ['marzipan', ids.odt, 'minutes.odt', 'people/onboarding'],
      ['kestrel', ids.txt, 'inventory.txt', 'ops/inventory'],
      ['wombat', ids.md, 'runbook.md', 'ops/inventory'],
    ];
    for (const [word, id, filename, slug] of cases) {
      const items = await hits(reader, word);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        slug,
        attachment: { id, filename },
        usedOn: [{ slug, title: expect.any(String) }],
      });
      expect(items[0].snippet).toContain(`<mark>${word}</mark>`);
    }
    // A phrase and a prefix, as in pages.
    expect((await attachmentHits(reader, '"revenue report"'))[0].attachment!.id).toBe(ids.pdf);
    expect((await attachmentHits(reader, 'zanzib'))[0].attachment!.id).toBe(ids.pdf);
    expect(await attachmentHits(reader, '"report revenue"')).toEqual([]);
  });

  it('finds a substring of Japanese text inside a document, as in pages', async () => {
    const [hit] = await attachmentHits(reader, '同胞');
    expect(hit).toMatchObject({ slug: 'ops/inventory', attachment: { id: ids.ja } });
    expect(hit.snippet).toContain('<mark>同胞</mark>');
  });

  it('shows a hit only to callers who may see a page using the file', async () => {
    expect(await attachmentHits(reader, 'narwhal')).toEqual([]);
    expect(await attachmentHits(editor, 'narwhal')).toEqual([]);
    expect(await attachmentHits(insider, 'narwhal')).toMatchObject([
      { slug: 'legal/settlement', attachment: { id: ids.secret, filename: 'settlement.pdf' } },
    ]);
    // On no page: nobody, not even an administrator, gets it as a hit.
    expect(await attachmentHits(admin, 'ocelot')).toEqual([]);
    // On a hidden and a visible page: the reader is pointed at the visible one only.
    const [shared] = await attachmentHits(reader, 'pangolin');
    expect(shared).toMatchObject({ slug: 'plans/budget', attachment: { id: ids.shared } });
    expect(shared.usedOn).toEqual([{ slug: 'plans/budget', title: 'Budget plan' }]);
    expect(JSON.stringify(shared)).not.toContain('legal');
    const [both] = await attachmentHits(insider, 'pangolin');
    expect(both.usedOn!.map((p) => p.slug)).toEqual(['legal/budget', 'plans/budget']);
  });

  it('applies the query’s filters to the pages using the file', async () => {
    expect(await attachmentHits(reader, 'zanzibar under:finance')).toHaveLength(1);
    expect(await attachmentHits(reader, 'zanzibar tag:finance')).toHaveLength(1);
    expect(await attachmentHits(reader, 'zanzibar under:ops')).toEqual([]);
    expect(await attachmentHits(reader, 'zanzibar', '&under=people')).toEqual([]);
    expect(await attachmentHits(reader, 'zanzibar -revenue')).toEqual([]);
  });

  it('keeps attachment hits to the first page of results and within the limit', async () => {
    await createPage(editor, {
      slug: 'notes/kestrel',
      title: 'Kestrel notes',
      content: 'About kestrel.',
    });
    const first = await search(reader, 'kestrel', '&limit=2');
    expect(first.items.map((i) => i.slug)).toEqual(['notes/kestrel', 'ops/inventory']);
    expect((first.items[1] as AttachmentItem).attachment!.id).toBe(ids.txt);
    // A limit of 1 holds a page only.
    const one = await search(reader, 'kestrel', '&limit=1');
    expect(one.items).toHaveLength(1);
    expect((one.items[0] as AttachmentItem).attachment).toBeUndefined();
  });

  it('records files it cannot read and leaves other types out, without failing search', async () => {
    expect(await status(ids.pdf)).toEqual({ status: 'indexed', detail: null });
    expect((await status(ids.corrupt)).status).toBe('failed');
    expect(await status(ids.zip)).toEqual({ status: 'unsupported', detail: 'application/zip' });
    expect(await attachmentHits(admin, 'really')).toEqual([]);
  });

  it('forgets a file when its page stops using it and when it is deleted', async () => {
    await createPage(editor, { slug: 'tmp/holder', title: 'Holder', content: 'nothing yet' });
    const id = await attach(Buffer.from('The axolotl procedure.\n'), 'axolotl.txt');
    await editor
      .put('/api/pages/tmp/holder')
      .set('If-Match', '"1"')
      .send({ title: 'Holder', content: `[f](/api/attachments/${id}/content)` })
      .expect(200);
    await indexed();
    expect(await attachmentHits(reader, 'axolotl')).toHaveLength(1);
    await editor
      .put('/api/pages/tmp/holder')
      .set('If-Match', '"2"')
      .send({ title: 'Holder', content: 'gone' })
      .expect(200);
    expect(await attachmentHits(reader, 'axolotl')).toEqual([]);
    await editor.delete(`/api/attachments/${id}`).expect(204);
    expect(await status(id)).toBeUndefined();
    expect(await attachmentHits(admin, 'axolotl')).toEqual([]);
  });
});

/** A PDF as people have them: printed by Chromium (embedded subset fonts), through kb's export. */
describe('search in a PDF printed by Chromium', () => {
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
    'finds words of a real PDF, accents folded, pointing at the page that holds it',
    async () => {
      const editor = await signedIn(t, 'editor');
      const reader = await signedIn(t, 'reader');
      await createPage(editor, {
        slug: 'print/source',
        title: 'Incident review',
        content: '## Timeline\n\nThe flamingo failover took place at the café in Zürich.',
      });
      const printed = await editor
        .post('/export/pdf/print/source')
        .send({})
        .buffer(true)
        .parse(binary)
        .expect(200);
      const pdf = printed.body as Buffer;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const stored = await upload(editor, 'attachments', pdf, 'incident-review.pdf').expect(201);
      await createPage(editor, {
        slug: 'ops/reviews',
        title: 'Reviews',
        content: `[review](/api/attachments/${stored.body.id}/content)`,
      });
      await t.get(AttachmentTextIndexer).idle();
      for (const q of ['flamingo failover', 'cafe zurich', '"flamingo failover"']) {
        const items = (await search(reader, q)).items as AttachmentItem[];
        expect(items.find((i) => i.attachment)).toMatchObject({
          slug: 'ops/reviews',
          attachment: { id: stored.body.id, filename: 'incident-review.pdf' },
        });
      }
    },
    120_000,
  );
});
