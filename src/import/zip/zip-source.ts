import { open } from 'node:fs/promises';

/** Random access to the bytes of a ZIP: an uploaded temp file or a nested archive in memory. */
export interface ZipSource {
  readonly size: number;
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

export function bufferSource(buffer: Buffer): ZipSource {
  return {
    size: buffer.length,
    read: async (position, length) =>
      buffer.subarray(position, Math.min(buffer.length, position + length)),
    close: async () => undefined,
  };
}

/** Entries are mostly read front to back: reads are served from a window of this size. */
const WINDOW_BYTES = 4 * 1024 * 1024;

export async function fileSource(path: string): Promise<ZipSource> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  let window: Buffer = Buffer.alloc(0);
  let windowStart = 0;
  const readAt = async (position: number, wanted: number): Promise<Buffer> => {
    const buffer = Buffer.allocUnsafe(wanted);
    let done = 0;
    while (done < wanted) {
      const { bytesRead } = await handle.read(buffer, done, wanted - done, position + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buffer.subarray(0, done);
  };
  return {
    size,
    read: async (position, length) => {
      const wanted = Math.max(0, Math.min(length, size - position));
      if (position >= windowStart && position + wanted <= windowStart + window.length) {
        return window.subarray(position - windowStart, position - windowStart + wanted);
      }
      if (wanted >= WINDOW_BYTES) return readAt(position, wanted);
      window = await readAt(position, Math.min(WINDOW_BYTES, size - position));
      windowStart = position;
      return window.subarray(0, wanted);
    },
    close: () => handle.close(),
  };
}
