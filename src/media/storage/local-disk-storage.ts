import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ByteRange, MediaStorage, SHA256_HEX, StoredEntry, StoredObject } from './media-storage';

const FAN_OUT = /^[0-9a-f]{2}$/;

/**
 * Media on local disk under `<dataDir>/media/ab/cd/<sha256>` (two levels of fan-out keep
 * folders small). Writes are atomic: the content appears under its final name complete or not
 * at all, so a reader never sees a partial file.
 */
export class LocalDiskMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

  pathFor(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error('invalid sha256 key');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(sha256: string, sourcePath: string): Promise<void> {
    const target = this.pathFor(sha256);
    if (await this.renew(target)) return;
    await mkdir(dirname(target), { recursive: true });
    try {
      // A hard link is instant and atomic; it fails if the target appeared meanwhile (same bytes).
      await link(sourcePath, target);
      // A link keeps the temp file's times; the content counts as written now.
      await this.renew(target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && (await this.renew(target))) return;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK')
        throw error;
    }
    // Another filesystem (or no hard links): copy beside the target, then rename into place.
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await copyFile(sourcePath, partial);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }

  async stat(sha256: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathFor(sha256));
      return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.stat(sha256)) !== null;
  }

  createReadStream(sha256: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(
      this.pathFor(sha256),
      range ? { start: range.start, end: range.end } : {},
    );
    // Resolve once the file is open so a missing file rejects here rather than mid-response.
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', reject);
    });
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathFor(sha256), { force: true });
  }

  async *list(): AsyncIterable<StoredEntry> {
    for (const first of await names(this.root, FAN_OUT)) {
      for (const second of await names(join(this.root, first), FAN_OUT)) {
        const folder = join(this.root, first, second);
        for (const name of await names(folder, SHA256_HEX)) {
          const info = await stat(join(folder, name)).catch(() => null);
          if (info?.isFile()) yield { sha256: name, modifiedAt: info.mtime };
        }
      }
    }
  }

  /** Sets the content's times to now; false when it is not stored. */
  private async renew(path: string): Promise<boolean> {
    const now = new Date();
    try {
      await utimes(path, now, now);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}

/** The entries of `folder` whose names match `pattern` (none when it is missing). */
async function names(folder: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((name) => pattern.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
