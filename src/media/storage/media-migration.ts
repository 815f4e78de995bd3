import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { LocalDiskMediaStorage } from './local-disk-storage';
import type { MediaStorage } from './media-storage';

export type MigrationOutcome = 'copied' | 'present' | 'missing' | 'corrupt';

export interface MigrationProgress {
  sha256: string;
  outcome: MigrationOutcome;
  /** Contents handled so far, this one included. */
  done: number;
}

export interface MigrationSummary {
  copied: number;
  present: number;
  failed: number;
}

/** Pages through the content hashes the database references. */
export type HashSource = (after: string, limit: number) => Promise<string[]>;

const PAGE = 500;

/**
 * Copies every referenced content from one store to another (`media:migrate`). Resumable: a
 * content the target already holds at the right size is skipped, and the target only ever
 * holds complete objects, so a run that stopped half way is simply run again. Each copy is
 * read back from the target and its SHA-256 compared with its key; a mismatch removes the
 * copy and counts as a failure (the source stays untouched either way).
 */
export async function migrateMedia(
  hashes: HashSource,
  from: LocalDiskMediaStorage,
  to: MediaStorage,
  report: (progress: MigrationProgress) => void,
): Promise<MigrationSummary> {
  const summary: MigrationSummary = { copied: 0, present: 0, failed: 0 };
  let after = '';
  let done = 0;
  for (;;) {
    const page = await hashes(after, PAGE);
    if (page.length === 0) return summary;
    for (const sha256 of page) {
      const outcome = await migrateOne(sha256, from, to);
      if (outcome === 'copied') summary.copied += 1;
      else if (outcome === 'present') summary.present += 1;
      else summary.failed += 1;
      report({ sha256, outcome, done: (done += 1) });
    }
    after = page[page.length - 1];
  }
}

async function migrateOne(
  sha256: string,
  from: LocalDiskMediaStorage,
  to: MediaStorage,
): Promise<MigrationOutcome> {
  const source = await from.stat(sha256);
  const target = await to.stat(sha256);
  if (target && (!source || target.size === source.size)) return 'present';
  if (!source) return 'missing';
  if (target) await to.delete(sha256);
  await to.put(sha256, from.pathFor(sha256));
  if ((await hashOf(to, sha256)) === sha256) return 'copied';
  await to.delete(sha256);
  return 'corrupt';
}

async function hashOf(store: MediaStorage, sha256: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await store.createReadStream(sha256), hash);
  return hash.digest('hex');
}
