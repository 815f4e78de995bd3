import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ByteRange, MediaStorage, SHA256_HEX, StoredObject } from './media-storage';

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
    if (await this.exists(sha256)) return;
    await mkdir(dirname(target), { recursive: true });
    try {
      // A hard link is instant and atomic; it fails if the target appeared meanwhile (same bytes).
      await link(sourcePath, target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
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
      return info.isFile() ? { size: info.size } : null;
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
}
