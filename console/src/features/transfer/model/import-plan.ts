import type { components } from '../../../api/kb-api';

export type ImportReport = components['schemas']['ImportReportResponse'];

/** What happens (or would happen) to one file or page of an import. */
export type PlanAction =
  | 'create'
  | 'replace'
  | 'unchanged'
  | 'bin'
  | 'skip'
  | 'unresolved link'
  | 'unresolved image'
  | 'refused'
  | 'ignored'
  | 'attachment';

export interface PlanRow {
  action: PlanAction;
  /** A page's slug (create, replace, unchanged, bin) or the file's path. */
  subject: string;
  /** Whether `subject` is a page slug (the report links it). */
  isPage: boolean;
  detail: string;
}

export const PLAN_ACTION_LABELS: Record<PlanAction, string> = {
  create: 'Create',
  replace: 'Replace',
  unchanged: 'Leave unchanged',
  bin: 'Move to bin',
  skip: 'Skip',
  'unresolved link': 'Unresolved link',
  'unresolved image': 'Unresolved image',
  refused: 'Refused file',
  ignored: 'Ignored file',
  attachment: 'Stored as attachment',
};

/** One row per page and per problem of a report (a dry run's plan or a real import's report). */
export function planRows(report: ImportReport): PlanRow[] {
  const page = (action: PlanAction, detail: string) => (slug: string) => ({
    action,
    subject: slug,
    isPage: true,
    detail,
  });
  const file = (action: PlanAction) => (f: { path: string; reason: string }) => ({
    action,
    subject: f.path,
    isPage: false,
    detail: f.reason,
  });
  const ref = (action: PlanAction) => (r: { path: string; target: string }) => ({
    action,
    subject: r.path,
    isPage: false,
    detail: `points at ${r.target}, which is not in kb or the upload`,
  });
  return [
    ...report.created.map(page('create', 'new page')),
    ...report.replaced.map(page('replace', 'a new revision; metadata kept')),
    ...report.unchanged.map(page('unchanged', 'already the same')),
    // Mirror: after the import the page is in the bin, so only the plan links it.
    ...report.binned.map((slug) => ({
      ...page('bin', 'not in the upload (mirror); restorable from the bin')(slug),
      isPage: report.dryRun,
    })),
    ...report.skipped.map(file('skip')),
    ...report.unresolvedLinks.map(ref('unresolved link')),
    ...report.unresolvedImages.map(ref('unresolved image')),
    ...report.refusedFiles.map(file('refused')),
    ...report.storedAsAttachment.map(file('attachment')),
    ...report.ignored.map(file('ignored')),
  ];
}

/** The rows of one action (all when `action` is empty) whose subject or detail has `text`. */
export function filterPlan(rows: PlanRow[], action: PlanAction | '', text: string): PlanRow[] {
  const needle = text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!action || r.action === action) &&
      (!needle ||
        r.subject.toLowerCase().includes(needle) ||
        r.detail.toLowerCase().includes(needle)),
  );
}

/** "12 to create, 3 to replace, 1 unchanged, 2 skipped" (the words of a dry run or a report). */
export function summary(report: ImportReport): string {
  const c = report.counts;
  const verb = report.dryRun ? ['to create', 'to replace'] : ['created', 'replaced'];
  return [
    `${c.created} ${verb[0]}`,
    `${c.replaced} ${verb[1]}`,
    `${c.unchanged} unchanged`,
    `${c.skipped} skipped`,
    ...(c.binned > 0
      ? [`${c.binned} ${report.dryRun ? 'to move to the bin' : 'moved to the bin'}`]
      : []),
  ].join(', ');
}
