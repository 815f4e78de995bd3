import { filterPlan, planRows, summary, type ImportReport } from './import-plan';

const counts = {
  created: 2,
  replaced: 1,
  unchanged: 0,
  binned: 0,
  skipped: 1,
  images: 0,
  attachments: 0,
  unresolvedLinks: 1,
  unresolvedImages: 0,
  refusedFiles: 0,
  storedAsAttachment: 0,
  siteVariables: 0,
  ignored: 0,
  macros: 0,
};
const report: ImportReport = {
  format: 'markdown',
  dryRun: true,
  pages: [
    { path: 'a.md', slug: 'docs/a', outcome: 'created' },
    { path: 'b.md', slug: 'docs/b', outcome: 'created' },
    { path: 'c.md', slug: 'docs/c', outcome: 'replaced' },
  ],
  created: ['docs/a', 'docs/b'],
  replaced: ['docs/c'],
  unchanged: [],
  binned: [],
  skipped: [{ path: 'bad.md', reason: 'The file has no # Title.', code: 'missing_title' }],
  images: [],
  attachments: [],
  unresolvedLinks: [{ path: 'a.md', target: 'missing.md' }],
  unresolvedImages: [],
  refusedFiles: [],
  storedAsAttachment: [],
  siteVariables: [],
  ignored: [],
  macros: [],
  counts,
};

describe('the import plan', () => {
  it('has one row per page and per problem, pages first', () => {
    const rows = planRows(report);
    expect(rows.map((r) => [r.action, r.subject, r.isPage])).toEqual([
      ['create', 'docs/a', true],
      ['create', 'docs/b', true],
      ['replace', 'docs/c', true],
      ['skip', 'bad.md', false],
      ['unresolved link', 'a.md', false],
    ]);
    expect(rows[3].detail).toBe('The file has no # Title.');
    expect(rows[4].detail).toContain('missing.md');
  });

  it('filters by action and by text in the subject or the detail', () => {
    const rows = planRows(report);
    expect(filterPlan(rows, 'create', '').map((r) => r.subject)).toEqual(['docs/a', 'docs/b']);
    expect(filterPlan(rows, '', 'TITLE').map((r) => r.subject)).toEqual(['bad.md']);
    expect(filterPlan(rows, 'replace', 'docs/a')).toEqual([]);
  });

  it('sums a dry run up as what would happen, an import as what did', () => {
    expect(summary(report)).toBe('2 to create, 1 to replace, 0 unchanged, 1 skipped');
    expect(summary({ ...report, dryRun: false })).toBe(
      '2 created, 1 replaced, 0 unchanged, 1 skipped',
    );
  });

  it('lists the pages a mirror import bins, linked only while they are still live (dry run)', () => {
    const mirrored = { ...report, binned: ['docs/old'], counts: { ...counts, binned: 1 } };
    expect(planRows(mirrored).filter((r) => r.action === 'bin')).toEqual([
      {
        action: 'bin',
        subject: 'docs/old',
        isPage: true,
        detail: 'not in the upload (mirror); restorable from the bin',
      },
    ]);
    expect(planRows({ ...mirrored, dryRun: false }).find((r) => r.action === 'bin')?.isPage).toBe(
      false,
    );
    expect(summary(mirrored)).toBe(
      '2 to create, 1 to replace, 0 unchanged, 1 skipped, 1 to move to the bin',
    );
    expect(summary({ ...mirrored, dryRun: false })).toContain('1 moved to the bin');
  });
});
