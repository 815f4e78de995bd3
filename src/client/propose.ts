import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  dropExtension,
  joinSlug,
  readMarkdownDocument,
  slugFromPath,
  tidyContent,
} from '../import/public-api';
import { KbError, KbHttp } from './kb-http';

/** What `kb push --propose` needs from the command line. */
export interface ProposeOptions {
  dir: string;
  files: string[];
  label: string;
  prefix: string;
  title?: string;
  wait: boolean;
  junit?: string;
  /** How often --wait asks (KB_PROPOSE_POLL_MS; default 5 s). */
  pollMs: number;
}

interface ChangeRequest {
  id: number;
  state: 'open' | 'merged' | 'closed';
  url: string;
  version: number;
  approvalsMissing: number;
  conflicts: { slug: string; reason: string }[];
}

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

/**
 * `kb push DIR --propose LABEL`: the Markdown files of DIR as one change request instead of an
 * import — an update for each page whose Markdown differs (based on the revision read), a
 * create for each new slug — made, or updated when the caller has an open request with that
 * label (one request per branch). Slugs and titles follow the Markdown import's rules (path →
 * slug, `# Title`); links are proposed as written. Prints the request's console URL; with
 * `wait`, follows it until merged (0) or closed (1), and stops at conflicts (1).
 */
export async function propose(http: KbHttp, options: ProposeOptions, io: Io): Promise<number> {
  const changes: Record<string, unknown>[] = [];
  for (const file of options.files.filter((f) => /\.(md|markdown)$/i.test(f))) {
    const doc = readMarkdownDocument(await readFile(join(options.dir, file), 'utf8'), false);
    const slug = slugFromPath(dropExtension(file));
    if (!doc.title || !slug) {
      io.err.write(`kb: skipped ${file}: no "# Title" line or no usable slug\n`);
      continue;
    }
    const full = joinSlug(options.prefix, slug);
    const content = tidyContent(doc.body);
    const current = await readPage(http, full);
    if (!current) changes.push({ slug: full, action: 'create', title: doc.title, content });
    else if (current.content !== content || current.title !== doc.title)
      changes.push({
        slug: full,
        action: 'update',
        title: doc.title,
        content,
        baseRevision: current.revision,
      });
  }
  changes.sort((a, b) => (String(a.slug) < String(b.slug) ? -1 : 1));
  if (changes.length === 0) {
    io.out.write('kb: nothing to propose: every page is as in the folder\n');
    return 0;
  }
  const request: ChangeRequest = await http.json('/api/change-requests', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: options.title ?? `kb push: ${options.label}`,
      label: options.label,
      description: `Proposed by \`kb push --propose ${options.label}\` (${changes.length} pages).`,
      changes,
    }),
  });
  io.out.write(
    `change request #${request.id} (${request.version === 1 ? 'created' : 'updated'}, ${changes.length} pages): ${http.base}${request.url}\n`,
  );
  if (options.junit) {
    const response = await http.request(
      `/api/change-requests/${request.id}/links`,
      {},
      'application/xml',
    );
    await writeFile(options.junit, await response.text());
  }
  if (!options.wait) return 0;
  return waitFor(http, request.id, options.pollMs, io);
}

async function readPage(
  http: KbHttp,
  slug: string,
): Promise<{ title: string; content: string; revision: number } | null> {
  try {
    return await http.json(`/api/pages/${slug.split('/').map(encodeURIComponent).join('/')}`);
  } catch (error) {
    if (error instanceof KbError && error.status === 404) return null;
    throw error;
  }
}

/** Follows the request: 0 once merged, 1 once closed or when it has conflicts. */
async function waitFor(http: KbHttp, id: number, pollMs: number, io: Io): Promise<number> {
  let said = '';
  for (;;) {
    const request: ChangeRequest = await http.json(`/api/change-requests/${id}`);
    if (request.state === 'merged') {
      io.out.write(`change request #${id} merged\n`);
      return 0;
    }
    if (request.state === 'closed') {
      io.err.write(`kb: change request #${id} was closed without merging\n`);
      return 1;
    }
    if (request.conflicts.length > 0) {
      io.err.write(
        `kb: change request #${id} conflicts with later edits: ${request.conflicts.map((c) => `${c.slug} (${c.reason})`).join(', ')}\n`,
      );
      return 1;
    }
    const status = `waiting for review: ${request.approvalsMissing} approval(s) missing`;
    if (status !== said) io.err.write(`kb: change request #${id} ${status}\n`);
    said = status;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
