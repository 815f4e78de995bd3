import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one place temporary files go: `<dataDir>/tmp`, on the same disk as the media store (a
 * finished upload is renamed into the store, never copied), and inside the folder an operator
 * already sized and backs up around. Uploads, imports and archive exports all use it.
 */
export function tempFolder(dataDir: string): string {
  return join(dataDir, 'tmp');
}

/** A fresh folder `<dataDir>/tmp/<prefix>XXXXXX`; the caller removes it. */
export async function makeTempDir(dataDir: string, prefix: string): Promise<string> {
  const root = tempFolder(dataDir);
  await mkdir(root, { recursive: true });
  return mkdtemp(join(root, prefix));
}
