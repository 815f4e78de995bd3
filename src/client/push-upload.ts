import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ClientIo } from './kb-client';
import { KbError, KbHttp } from './kb-http';
import { zipStream } from './zip-folder';

/** A throttled progress line writer (the last line forced out). */
export type Progress = (line: string, force?: boolean) => void;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface FolderUpload {
  dir: string;
  files: string[];
  fields: Record<string, string>;
}

/**
 * Sends the folder as a ZIP made while it is sent; answers the accepted job. A network failure
 * or a 502/503/504 while uploading is retried with the same Idempotency-Key: the ZIP has the
 * same bytes, so kb runs the import at most once.
 */
export async function uploadFolder<T>(
  http: KbHttp,
  upload: FolderUpload,
  io: ClientIo,
  progress: Progress,
): Promise<T> {
  const idempotencyKey = `kb-push-${randomUUID()}`;
  for (let attempt = 1; ; attempt++) {
    try {
      return await uploadOnce<T>(http, upload, idempotencyKey, progress);
    } catch (error) {
      const retriable =
        error instanceof KbError &&
        (error.status === undefined || [502, 503, 504].includes(error.status));
      if (!retriable || attempt >= 3) throw error;
      io.err.write(`kb: ${(error as Error).message}; retrying (${attempt + 1}/3)\n`);
    }
  }
}

async function uploadOnce<T>(
  http: KbHttp,
  { dir, files, fields }: FolderUpload,
  idempotencyKey: string,
  progress: Progress,
): Promise<T> {
  let zipped = 0;
  let sent = 0;
  const zip = zipStream(dir, files, (done) => {
    zipped = done;
  });
  const boundary = `kb-${randomUUID()}`;
  try {
    const response = await http.request('/api/import', {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Idempotency-Key': `"${idempotencyKey}"`,
      },
      body: Readable.from(
        multipart(boundary, fields, 'upload.zip', zip, (bytes) => {
          sent = bytes;
          progress(`upload: ${megabytes(sent)} sent, ${zipped}/${files.length} files`);
        }),
      ) as unknown as ReadableStream,
      duplex: 'half',
    });
    progress(`upload: ${megabytes(sent)} sent, ${files.length}/${files.length} files`, true);
    return (await response.json()) as T;
  } catch (error) {
    zip.destroy();
    throw error;
  }
}

/** The multipart body, streamed: the fields, then the ZIP as `files` (sent as it is made). */
async function* multipart(
  boundary: string,
  fields: Record<string, string>,
  fileName: string,
  file: Readable,
  onBytes: (sent: number) => void,
): AsyncGenerator<Buffer> {
  let sent = 0;
  const emit = (chunk: Buffer): Buffer => {
    sent += chunk.length;
    onBytes(sent);
    return chunk;
  };
  for (const [name, value] of Object.entries(fields))
    yield emit(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  yield emit(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    ),
  );
  for await (const chunk of file) yield emit(chunk as Buffer);
  yield emit(Buffer.from(`\r\n--${boundary}--\r\n`));
}
