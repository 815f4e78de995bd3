import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import unzipper from 'unzipper';
import { failedImportJunit, FailedImportProblem } from './failure-junit';
import { describeProblem, KbError, KbHttp, serverSentEvents } from './kb-http';
import { propose } from './propose';
import { uploadFolder } from './push-upload';
import { folderFiles } from './zip-folder';

export const CLIENT_USAGE = `Usage: kb <command> [options]       (or: npm run cli -- <command> [options])
  push DIR --url URL --format markdown|wikijs|confluence [--prefix PREFIX] [--mirror]
       [--dry-run] [--skip-invalid] [--junit FILE] [--fail-on-broken-links]
                      zips DIR (minus .kbignore) and imports it; follows the import job
  push DIR --propose LABEL [--prefix PREFIX] [--title TITLE] [--wait] [--junit FILE]
                      proposes DIR's Markdown as one change request per LABEL (made or
                      updated) instead; --wait: exit 0 once merged, 1 closed or conflicting
  pull PREFIX DIR --url URL    exports the pages under PREFIX into DIR
  links [PREFIX] --url URL     lists broken links and missing images
The token comes from the KB_TOKEN environment variable (a personal access token), never from
the command line; --url defaults to KB_URL.
Exit codes: 0 done, 1 the import failed or kb refused, 2 broken links found, 64 usage.`;

const OPTIONS = {
  url: { type: 'string' },
  format: { type: 'string' },
  prefix: { type: 'string' },
  mirror: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'skip-invalid': { type: 'boolean' },
  junit: { type: 'string' },
  'fail-on-broken-links': { type: 'boolean' },
  propose: { type: 'string' },
  title: { type: 'string' },
  wait: { type: 'boolean' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

class UsageError extends Error {}

/** Where the CLI writes: the summary to `out`, progress and errors to `err`. */
export interface ClientIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

interface ImportReport {
  dryRun: boolean;
  created: string[];
  replaced: string[];
  unchanged: string[];
  binned?: string[];
  skipped: { path: string; reason: string }[];
  counts: Record<string, number>;
}

interface ImportJob {
  id: string;
  state: string;
  report: ImportReport | null;
  problem: (FailedImportProblem & { status?: number }) | null;
}

interface BrokenLink {
  page: string;
  target: string;
  line: number;
  kind: string;
}

/** Progress lines on stderr, at most one every `everyMs` (the last one always). */
function throttled(io: ClientIo, everyMs = 1000): (line: string, force?: boolean) => void {
  let last = 0;
  return (line, force = false) => {
    const now = Date.now();
    if (!force && now - last < everyMs) return;
    last = now;
    io.err.write(`${line}\n`);
  };
}

function connect(values: Values, io: ClientIo): KbHttp {
  const url = values.url ?? io.env.KB_URL;
  if (!url) throw new UsageError('--url (or KB_URL) is required');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
  const token = io.env.KB_TOKEN;
  if (!token) throw new UsageError('set KB_TOKEN to a personal access token (POST /api/tokens)');
  return new KbHttp(url, token);
}

async function allBrokenLinks(http: KbHttp, prefix: string | undefined): Promise<BrokenLink[]> {
  const items: BrokenLink[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '1000' });
    if (prefix) query.set('prefix', prefix);
    if (cursor) query.set('cursor', cursor);
    const page: { items: BrokenLink[]; nextCursor: string | null } = await http.json(
      `/api/reports/links?${query}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

function printBrokenLinks(io: ClientIo, links: BrokenLink[]): void {
  for (const link of links)
    io.out.write(
      `${link.page}:${link.line}: broken ${link.kind === 'image' ? 'image' : 'link'} ${link.target}\n`,
    );
}

async function push(args: string[], values: Values, io: ClientIo): Promise<number> {
  const [dirArg] = args;
  if (!dirArg || args.length > 1) throw new UsageError('push takes one folder: kb push DIR');
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`${dirArg} is not a folder`);
  if (values.propose !== undefined) return pushProposal(dir, dirArg, values, io);
  if (values.wait || values.title !== undefined)
    throw new UsageError('--wait and --title go with --propose LABEL');
  if (!values.format) throw new UsageError('--format is required (markdown, wikijs or confluence)');
  if (values.mirror && !values.prefix)
    throw new UsageError('--mirror needs --prefix: only the pages under it mirror the folder');
  const http = connect(values, io);

  const files = await folderFiles(dir);
  if (files.length === 0) throw new UsageError(`${dirArg} has no files to push (see .kbignore)`);
  io.err.write(`kb: pushing ${files.length} files from ${dirArg} to ${http.base}\n`);
  const upload = { dir, files, fields: importFields(values) };
  const accepted = await uploadFolder<ImportJob>(http, upload, io, throttled(io));
  const job = await follow(http, accepted, io);
  if (job.state !== 'succeeded' || !job.report) return importFailed(job, values.junit, io);
  printSummary(io, job.report);
  if (values.junit) await writeJunit(http, job.id, values.junit, io);
  if (!values['fail-on-broken-links']) return 0;
  if (job.report.dryRun) {
    io.err.write('kb: links not checked: a dry run writes nothing to check\n');
    return 0;
  }
  return reportBrokenLinks(http, values.prefix, io);
}

/** `push --propose LABEL`: the folder's Markdown as a change request (src/client/propose.ts). */
async function pushProposal(
  dir: string,
  dirArg: string,
  values: Values,
  io: ClientIo,
): Promise<number> {
  const label = values.propose!.trim();
  if (!label) throw new UsageError('--propose needs a label (a branch name)');
  if (values.format !== undefined && values.format !== 'markdown')
    throw new UsageError('--propose takes a Markdown folder (--format markdown)');
  if (values.mirror || values['dry-run'] || values['skip-invalid'])
    throw new UsageError('--mirror, --dry-run and --skip-invalid are for imports, not --propose');
  const prefix = (values.prefix ?? '').replace(/^\/+|\/+$/g, '').toLowerCase();
  const http = connect(values, io);
  const files = await folderFiles(dir);
  if (files.length === 0) throw new UsageError(`${dirArg} has no files to push (see .kbignore)`);
  const pollMs = Number(io.env.KB_PROPOSE_POLL_MS ?? 5000);
  return propose(
    http,
    {
      dir,
      files,
      label,
      prefix,
      title: values.title,
      wait: values.wait === true,
      junit: values.junit,
      pollMs: Number.isFinite(pollMs) && pollMs > 0 ? pollMs : 5000,
    },
    io,
  );
}

/** The form fields of POST /api/import for the push options. */
function importFields(values: Values): Record<string, string> {
  const fields: Record<string, string> = { format: values.format!, async: 'true' };
  if (values.prefix) fields.prefix = values.prefix;
  if (values.mirror) fields.mode = 'mirror';
  if (values['dry-run']) fields.dryRun = 'true';
  if (values['skip-invalid']) fields.skipInvalid = 'true';
  return fields;
}

/** Says why the import did not succeed (and writes the failure as JUnit when asked); exit code 1. */
async function importFailed(
  job: ImportJob,
  junit: string | undefined,
  io: ClientIo,
): Promise<number> {
  io.err.write(
    `kb: the import ${job.state}` +
      (job.problem ? `: ${describeProblem(job.problem, job.problem.status ?? 422)}` : '') +
      '\n',
  );
  if (junit) {
    await mkdir(dirname(resolve(junit)), { recursive: true });
    await writeFile(junit, failedImportJunit(job.problem, job.state));
    io.err.write(`kb: JUnit report written to ${junit}\n`);
  }
  return 1;
}

/** Prints the broken links under `prefix`; exit code 2 when there are any, else 0. */
async function reportBrokenLinks(
  http: KbHttp,
  prefix: string | undefined,
  io: ClientIo,
): Promise<number> {
  const broken = await allBrokenLinks(http, prefix);
  printBrokenLinks(io, broken);
  if (broken.length === 0) {
    io.out.write('no broken links\n');
    return 0;
  }
  io.err.write(`kb: ${broken.length} broken link${broken.length === 1 ? '' : 's'}\n`);
  return 2;
}

/** Follows the job's events to its end (server-side progress on stderr); answers the finished job. */
async function follow(http: KbHttp, job: ImportJob, io: ClientIo): Promise<ImportJob> {
  const progress = throttled(io);
  const finished = ['succeeded', 'failed', 'cancelled'];
  for (let attempt = 0; attempt < 5 && !finished.includes(job.state); attempt++) {
    try {
      const response = await http.request(
        `/api/import/jobs/${job.id}/events`,
        {},
        'text/event-stream',
      );
      for await (const event of serverSentEvents(response)) {
        if (event.event === 'progress') {
          const p = event.data as { phase: string; done: number; total: number };
          progress(`kb: ${p.phase} ${p.done}/${p.total}`);
        } else if (event.event === 'state') {
          job = event.data as ImportJob;
          if (finished.includes(job.state)) break;
        }
      }
    } catch (error) {
      if (!(error instanceof KbError) || (error.status !== undefined && error.status < 500))
        throw error;
    }
    // The stream ended early (a restart, a proxy): read the job as it is now.
    if (!finished.includes(job.state)) job = await http.json(`/api/import/jobs/${job.id}`);
  }
  return job;
}

function printSummary(io: ClientIo, report: ImportReport): void {
  const c = report.counts;
  const parts = [
    `${c.created ?? 0} created`,
    `${c.replaced ?? 0} replaced`,
    `${c.unchanged ?? 0} unchanged`,
    ...(report.binned ? [`${report.binned.length} binned`] : []),
    `${c.skipped ?? 0} skipped`,
  ];
  io.out.write(`${report.dryRun ? 'dry run (nothing written): ' : ''}${parts.join(', ')}\n`);
  for (const slug of report.created) io.out.write(`  created   ${slug}\n`);
  for (const slug of report.replaced) io.out.write(`  replaced  ${slug}\n`);
  for (const slug of report.binned ?? []) io.out.write(`  binned    ${slug}\n`);
  for (const skip of report.skipped) io.out.write(`  skipped   ${skip.path}: ${skip.reason}\n`);
}

async function writeJunit(http: KbHttp, jobId: string, file: string, io: ClientIo): Promise<void> {
  const response = await http.request(`/api/import/jobs/${jobId}/report`, {}, 'application/xml');
  await mkdir(dirname(resolve(file)), { recursive: true });
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  io.err.write(`kb: JUnit report written to ${file}\n`);
}

async function pull(args: string[], values: Values, io: ClientIo): Promise<number> {
  if (args.length !== 2)
    throw new UsageError('pull takes a prefix and a folder: kb pull PREFIX DIR');
  const prefix = args[0].replace(/^\/+|\/+$/g, '').toLowerCase();
  const dir = resolve(args[1]);
  const http = connect(values, io);
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (cursor) query.set('cursor', cursor);
    const page: { items: { slug: string }[]; nextCursor: string | null } = await http.json(
      `/api/pages?${query}`,
    );
    for (const item of page.items)
      if (prefix === '' || item.slug === prefix || item.slug.startsWith(`${prefix}/`))
        slugs.push(item.slug);
    cursor = page.nextCursor;
  } while (cursor);
  if (slugs.length === 0) {
    io.err.write(`kb: no pages under "${prefix}"\n`);
    return 1;
  }
  const response = await http.request(
    '/api/export/archive',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ slugs }),
    },
    'application/zip',
  );
  await mkdir(dir, { recursive: true });
  let written = 0;
  const entries = Readable.fromWeb(response.body as never).pipe(
    unzipper.Parse({ forceStream: true }),
  );
  for await (const entry of entries as AsyncIterable<unzipper.Entry>) {
    const target = resolve(dir, entry.path);
    // Zip-slip guard: an entry must land inside the folder.
    if (entry.type !== 'File' || !target.startsWith(dir + sep)) {
      entry.autodrain();
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await pipeline(entry, createWriteStream(target));
    written++;
  }
  io.out.write(`pulled ${slugs.length} pages (${written} files) into ${args[1]}\n`);
  return 0;
}

async function links(args: string[], values: Values, io: ClientIo): Promise<number> {
  if (args.length > 1) throw new UsageError('links takes at most one prefix: kb links [PREFIX]');
  return reportBrokenLinks(connect(values, io), args[0], io);
}

const COMMANDS: Record<string, (args: string[], values: Values, io: ClientIo) => Promise<number>> =
  { push, pull, links };

/** Runs one client command (`argv` without node and the script); answers the exit code. */
export async function runClient(argv: string[], io: ClientIo): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    io.err.write(`kb: ${(error as Error).message}\n${CLIENT_USAGE}\n`);
    return 64;
  }
  const [command, ...args] = parsed.positionals;
  if (parsed.values.help || !command || !COMMANDS[command]) {
    io.err.write(`${CLIENT_USAGE}\n`);
    return parsed.values.help ? 0 : 64;
  }
  if (parsed.values.token !== undefined) {
    io.err.write(
      'kb: --token is not accepted: other users can read a command line (ps) and CI logs and ' +
        'shell histories keep it. Put the token in the KB_TOKEN environment variable.\n',
    );
    return 64;
  }
  try {
    return await COMMANDS[command](args, parsed.values, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`kb: ${error.message}\n${CLIENT_USAGE}\n`);
      return 64;
    }
    if (error instanceof KbError) {
      io.err.write(`kb: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
