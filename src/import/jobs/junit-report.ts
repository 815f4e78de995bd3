import type { ImportReport } from '../import.types';

/** What the JUnit document says about the job besides its report. */
export interface JUnitJob {
  id: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  prefix: string;
  mode: string;
}

interface TestCase {
  name: string;
  classname: string;
  failures: { type: string; message: string }[];
  skipped?: string;
  out: string[];
}

/**
 * An import report as JUnit XML (the Ant/Jenkins dialect every CI reads): one `<testsuite>`,
 * one `<testcase>` per file of the upload — a page (passing, or failing with its unresolved
 * links and images), a skipped or ignored file (`<skipped>` with the reason), a referenced file
 * the media rules refused (failing), a stored media file (passing) — plus one per page a mirror
 * import moved to the bin. A test case holds at most one `<failure>`; several problems of one
 * file are listed in it.
 */
export function importReportJUnit(report: ImportReport, job: JUnitJob): string {
  const cases = new Map<string, TestCase>();
  const fileCase = (path: string, classname = 'file'): TestCase => {
    let found = cases.get(path);
    if (!found) {
      found = { name: path, classname: `kb.import.${classname}`, failures: [], out: [] };
      cases.set(path, found);
    }
    return found;
  };
  const would = report.dryRun ? 'would be ' : '';
  for (const page of report.pages ?? [])
    fileCase(page.path, 'page').out.push(`${page.slug}: ${would}${page.outcome}`);
  for (const ref of report.unresolvedLinks)
    fileCase(ref.path, 'page').failures.push({
      type: 'unresolved_link',
      message: `link to ${ref.target}, which is not in kb or the upload`,
    });
  for (const ref of report.unresolvedImages)
    fileCase(ref.path, 'page').failures.push({
      type: 'unresolved_image',
      message: `image ${ref.target}, which is not in kb or the upload`,
    });
  for (const file of report.refusedFiles)
    fileCase(file.path).failures.push({ type: file.code, message: file.reason });
  for (const item of report.images) fileCase(item.path).out.push(storedLine('image', item.url));
  for (const item of report.attachments)
    fileCase(item.path).out.push(storedLine('attachment', item.url));
  for (const item of report.storedAsAttachment) fileCase(item.path).out.push(item.reason);
  for (const file of report.skipped) fileCase(file.path).skipped = `${file.code}: ${file.reason}`;
  for (const file of report.ignored) fileCase(file.path).skipped ??= `ignored: ${file.reason}`;
  for (const slug of report.binned ?? [])
    fileCase(slug, 'mirror').out.push(
      `${slug}: ${would}moved to the bin (under the prefix, not in the upload)`,
    );

  const suiteName = `kb import ${report.format}${job.prefix ? ` into ${job.prefix}` : ''}${
    job.mode === 'mirror' ? ' (mirror)' : ''
  }${report.dryRun ? ' (dry run)' : ''}`;
  return renderSuites(
    suiteName,
    job,
    [...cases.values()],
    [
      property('job', job.id),
      property('format', report.format),
      property('prefix', job.prefix),
      property('mode', job.mode),
      property('dryRun', String(report.dryRun)),
      ...Object.entries(report.counts).map(([name, value]) =>
        property(`counts.${name}`, String(value)),
      ),
    ],
  );
}

/** A per-file error of a failed job's problem (`errors[]` with `field: "files[<path>]"`). */
export interface FileError {
  path: string;
  code: string;
  message: string;
}

/**
 * The per-file errors of a failed job's problem: a strict import refused for invalid files
 * names each file as `files[<path>]`. Empty when the problem names no file.
 */
export function fileErrorsOf(problem: unknown): FileError[] {
  const errors = (problem as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  const found: FileError[] = [];
  for (const error of errors as { field?: unknown; code?: unknown; message?: unknown }[]) {
    const field = typeof error?.field === 'string' ? error.field : '';
    const match = /^files\[(.*)\]$/su.exec(field);
    if (!match) continue;
    found.push({
      path: match[1],
      code: typeof error.code === 'string' ? error.code : 'invalid_file',
      message: typeof error.message === 'string' ? error.message : '',
    });
  }
  return found;
}

/**
 * A failed job as JUnit XML: nothing was written, so the suite holds only the files its problem
 * names, each failing with its code and message (several errors of one file in its one
 * `<failure>`). The suite's name ends in "(failed)"; its properties name the problem's code.
 */
export function failedJobJUnit(
  job: JUnitJob & { format: string; dryRun: boolean },
  problem: { code?: string; detail?: string },
  errors: FileError[],
): string {
  const cases = new Map<string, TestCase>();
  for (const error of errors) {
    let found = cases.get(error.path);
    if (!found) {
      found = { name: error.path, classname: 'kb.import.file', failures: [], out: [] };
      cases.set(error.path, found);
    }
    found.failures.push({ type: error.code, message: error.message });
  }
  const suiteName = `kb import ${job.format}${job.prefix ? ` into ${job.prefix}` : ''}${
    job.mode === 'mirror' ? ' (mirror)' : ''
  }${job.dryRun ? ' (dry run)' : ''} (failed)`;
  return renderSuites(
    suiteName,
    job,
    [...cases.values()],
    [
      property('job', job.id),
      property('format', job.format),
      property('prefix', job.prefix),
      property('mode', job.mode),
      property('dryRun', String(job.dryRun)),
      property('problem', problem.code ?? ''),
      ...(problem.detail ? [property('detail', problem.detail)] : []),
    ],
  );
}

function renderSuites(
  suiteName: string,
  job: JUnitJob,
  all: TestCase[],
  properties: string[],
): string {
  const failures = all.filter((c) => c.failures.length > 0).length;
  const skipped = all.filter((c) => c.skipped !== undefined && c.failures.length === 0).length;
  const seconds =
    job.startedAt && job.finishedAt
      ? Math.max(0, job.finishedAt.getTime() - job.startedAt.getTime()) / 1000
      : 0;
  const counts = `tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(suiteName)}" ${counts}>`,
    `  <testsuite name="${attr(suiteName)}" id="${attr(job.id)}" ${counts}${
      job.finishedAt ? ` timestamp="${job.finishedAt.toISOString().slice(0, 19)}"` : ''
    }>`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...all.map(testCase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}

function storedLine(kind: string, url: string | null): string {
  return url ? `stored as ${kind} ${url}` : `would be stored as ${kind}`;
}

function property(name: string, value: string): string {
  return `      <property name="${attr(name)}" value="${attr(value)}"/>`;
}

function testCase(c: TestCase): string {
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" file="${attr(c.name)}" time="0"`;
  const body: string[] = [];
  if (c.failures.length === 1) {
    const [f] = c.failures;
    body.push(
      `      <failure type="${attr(f.type)}" message="${attr(f.message)}">${text(f.message)}</failure>`,
    );
  } else if (c.failures.length > 1) {
    const types = [...new Set(c.failures.map((f) => f.type))].join(' ');
    body.push(
      `      <failure type="${attr(types)}" message="${attr(`${c.failures.length} problems: ${c.failures[0].message}, …`)}">${text(
        c.failures.map((f) => `${f.type}: ${f.message}`).join('\n'),
      )}</failure>`,
    );
  } else if (c.skipped !== undefined) {
    body.push(`      <skipped message="${attr(c.skipped)}"/>`);
  }
  if (c.out.length > 0) body.push(`      <system-out>${text(c.out.join('\n'))}</system-out>`);
  return body.length === 0 ? `${open}/>` : [`${open}>`, ...body, '    </testcase>'].join('\n');
}

/**
 * Characters XML 1.0 cannot carry at all (controls other than tab, LF, CR; lone surrogates;
 * U+FFFE/U+FFFF) become U+FFFD: file names and link targets come from the upload.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function text(value: string): string {
  return value
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Attribute values: also quotes, and whitespace as references (parsers normalise it). */
function attr(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
