import ignore from 'ignore';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { createZip } from '../export/public-api';

/** Never uploaded, whatever .kbignore says. */
const ALWAYS_IGNORED = ['.git/', '.kbignore'];

/**
 * The files of `dir` to push, as slash-separated relative paths in a stable order: everything
 * but what `.kbignore` (gitignore syntax, at the folder's top) excludes, and `.git/`.
 */
export async function folderFiles(dir: string): Promise<string[]> {
  const rules = ignore().add(ALWAYS_IGNORED);
  const ignoreFile = join(dir, '.kbignore');
  if (existsSync(ignoreFile)) rules.add(readFileSync(ignoreFile, 'utf8'));
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const rel = relative(dir, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (!rules.ignores(`${rel}/`)) await walk(path);
      } else if (entry.isFile() && !rules.ignores(rel)) {
        files.push(rel);
      }
    }
  };
  await walk(dir);
  return files;
}

/**
 * A ZIP of `files` (relative to `dir`) made while it is read: nothing is held whole in memory
 * or written to disk. Entries carry a fixed date, so the same folder always gives the same bytes
 * (a retry with the same Idempotency-Key is the same request).
 */
export function zipStream(dir: string, files: string[], onEntry: (done: number) => void): Readable {
  const archive = createZip();
  let done = 0;
  archive.on('entry', () => onEntry(++done));
  const date = new Date('2000-01-01T00:00:00Z');
  for (const file of files) archive.file(join(dir, ...file.split('/')), { name: file, date });
  void archive.finalize();
  return archive;
}
