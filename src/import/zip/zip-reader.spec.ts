import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { PayloadTooLargeProblem } from '../../common/problems/problem';
import { ImportBudget } from '../import-budget';
import { expandUploads, UploadedFile } from '../source-tree';
import { checkEntryName } from './entry-names';

const MIB = 1024 * 1024;

describe('checkEntryName', () => {
  it.each([
    ['../../etc/evil.txt', 'climbs out'],
    ['a/../../b.md', 'climbs out'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/x.md', 'drive letter'],
    ['c:evil.md', 'drive letter'],
    ['docs\\a.md', 'backslash'],
    ['docs/CON', 'device'],
    ['nul.md', 'device'],
    ['LPT1.txt', 'device'],
  ])('refuses %s', (name, reason) => {
    const check = checkEntryName(name);
    expect(check.kind).toBe('refused');
    expect(check.kind === 'refused' && check.reason).toContain(reason);
  });

  it('normalises and skips what is not content', () => {
    expect(checkEntryName('./docs//a.md')).toEqual({ kind: 'ok', path: 'docs/a.md' });
    expect(checkEntryName('__MACOSX/docs/._a.md')).toEqual({ kind: 'skip' });
    expect(checkEntryName('docs/.DS_Store')).toEqual({ kind: 'skip' });
    expect(checkEntryName('/', true)).toEqual({ kind: 'skip' });
    expect(checkEntryName('docs/', true)).toEqual({ kind: 'skip' });
    expect(checkEntryName('console.md')).toEqual({ kind: 'ok', path: 'console.md' });
  });
});

describe('expandUploads', () => {
  let dir: string;
  let n = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kb-zip-spec-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function upload(name: string, data: Uint8Array): UploadedFile {
    const tempPath = join(dir, `${++n}.bin`);
    writeFileSync(tempPath, data);
    return { name, tempPath, size: data.length };
  }

  const text = (s: string) => new TextEncoder().encode(s);

  it('reads stored and deflated entries, nested ZIPs where they lie, and loose files', async () => {
    const inner = zipSync({ 'c.md': text('# C') });
    const outer = zipSync({
      'a.md': text('# A'),
      'sub/b.md': [text('# B'), { level: 0 }],
      'sub/inner.zip': inner,
      'sub/': new Uint8Array(0),
    });
    const result = await expandUploads(
      [upload('docs.zip', outer), upload('loose.md', text('# L'))],
      new ImportBudget(MIB, 100),
    );
    expect(result.problems).toEqual([]);
    expect(result.entries.map((e) => [e.path, e.data.toString()])).toEqual([
      ['a.md', '# A'],
      ['sub/b.md', '# B'],
      ['sub/c.md', '# C'],
      ['loose.md', '# L'],
    ]);
  });

  it('stops a ZIP bomb at the budget, counted on inflated bytes, nested included', async () => {
    const bomb = zipSync({ 'zeros.md': new Uint8Array(3 * MIB) }, { level: 9 });
    expect(bomb.length).toBeLessThan(20_000);
    await expect(
      expandUploads([upload('bomb.zip', bomb)], new ImportBudget(MIB, 100)),
    ).rejects.toBeInstanceOf(PayloadTooLargeProblem);
    const nested = zipSync({
      'inner.zip': zipSync({
        'a.md': new Uint8Array(600 * 1024),
        'b.md': new Uint8Array(600 * 1024),
      }),
    });
    await expect(
      expandUploads([upload('nested.zip', nested)], new ImportBudget(MIB, 100)),
    ).rejects.toMatchObject({ code: 'import_too_large' });
  });

  it('counts the bytes really inflated when an entry understates its size', async () => {
    const bomb = Buffer.from(zipSync({ 'liar.md': new Uint8Array(3 * MIB) }, { level: 9 }));
    const central = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(10, central + 24);
    await expect(
      expandUploads([upload('liar.zip', bomb)], new ImportBudget(MIB, 100)),
    ).rejects.toMatchObject({ code: 'import_too_large' });
  });

  it('refuses an entry that inflates to more than it declares but stays under the budget', async () => {
    const liar = Buffer.from(zipSync({ 'liar.md': new Uint8Array(2 * MIB) }, { level: 9 }));
    const central = liar.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    liar.writeUInt32LE(10, central + 24);
    const budget = new ImportBudget(4 * MIB, 100);
    const result = await expandUploads([upload('liar.zip', liar)], budget);
    expect(result.problems.map((p) => [p.field, p.code])).toEqual([
      ['files[liar.zip]', 'zip_corrupt'],
    ]);
    // Nothing of the lying entry was kept or charged.
    expect(budget.bytesUsed).toBe(0);
  });

  it('inflates large entries piece by piece to the exact bytes', async () => {
    const big = new Uint8Array(3 * MIB).map((_, i) => (i * 7919) % 251);
    const result = await expandUploads(
      [upload('big.zip', zipSync({ 'big.md': big }))],
      new ImportBudget(4 * MIB, 100),
    );
    expect(result.problems).toEqual([]);
    expect(Buffer.compare(result.entries[0].data, Buffer.from(big))).toBe(0);
  });

  it('stops a gzip bomb at the budget', async () => {
    const { gzipSync } = await import('node:zlib');
    await expect(
      expandUploads(
        [upload('a.md.gz', gzipSync(Buffer.alloc(3 * MIB)))],
        new ImportBudget(MIB, 100),
      ),
    ).rejects.toMatchObject({ code: 'import_too_large' });
  });

  it('caps the number of entries', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`p${i}.md`, text('# x')]),
    );
    await expect(
      expandUploads([upload('many.zip', zipSync(files))], new ImportBudget(MIB, 10)),
    ).rejects.toMatchObject({ code: 'import_too_many_entries' });
  });

  it('refuses hostile names and symbolic links, naming each entry', async () => {
    const hostile = zipSync({
      '../../etc/evil.txt': text('x'),
      'ok.md': text('# ok'),
      'link.md': [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    });
    const result = await expandUploads([upload('evil.zip', hostile)], new ImportBudget(MIB, 100));
    expect(result.entries).toEqual([]);
    expect(result.problems).toEqual([
      {
        field: 'files[evil.zip]',
        code: 'unsafe_entry_name',
        message: expect.stringContaining('../../etc/evil.txt'),
      },
      {
        field: 'files[evil.zip]',
        code: 'unsafe_entry_link',
        message: expect.stringContaining('link.md'),
      },
    ]);
  });

  it('reports corrupt and empty ZIPs', async () => {
    const good = zipSync({ 'a.md': text('# A'.repeat(100)) });
    const damaged = Buffer.from(good);
    damaged[40] ^= 0xff;
    const result = await expandUploads(
      [
        upload('garbage.zip', text('not a zip at all')),
        upload('empty.zip', zipSync({})),
        upload('damaged.zip', damaged),
      ],
      new ImportBudget(MIB, 100),
    );
    expect(result.problems.map((p) => [p.field, p.code])).toEqual([
      ['files[garbage.zip]', 'zip_corrupt'],
      ['files[empty.zip]', 'zip_empty'],
      ['files[damaged.zip]', 'zip_corrupt'],
    ]);
  });

  it('gunzips .gz files under the budget', async () => {
    const { gzipSync } = await import('node:zlib');
    const result = await expandUploads(
      [upload('pages.json.gz', gzipSync('[]'))],
      new ImportBudget(MIB, 100),
    );
    expect(result.entries.map((e) => [e.path, e.data.toString()])).toEqual([['pages.json', '[]']]);
  });
});
