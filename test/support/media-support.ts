import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type request from 'supertest';
import type { TestApp } from './test-app';
import type { Client } from './users';

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Collects a response body as raw bytes whatever its type. */
export function binary(
  res: request.Response,
  callback: (error: Error | null, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** Every file under a folder of the data dir, as paths relative to the data dir. */
export function filesUnder(t: TestApp, folder: 'tmp'): string[] {
  return filesIn(join(t.dataDir, folder))
    .map((path) => join(folder, path))
    .sort();
}

/**
 * The SHA-256 of every stored content, sorted, from the store the app uses: files under
 * `<dataDir>/media/ab/cd/<sha256>`, or keys `ab/cd/<sha256>` in the S3 bucket.
 */
export async function storedMedia(t: TestApp): Promise<string[]> {
  const keys = t.s3 ? await t.s3.keys() : filesIn(join(t.dataDir, 'media'));
  for (const key of keys) expect(key).toMatch(/^([0-9a-f]{2})\/([0-9a-f]{2})\/\1\2[0-9a-f]{60}$/);
  return keys.map((key) => key.slice(6)).sort();
}

function filesIn(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out;
}

export function upload(
  client: Client,
  kind: 'images' | 'attachments',
  data: Buffer,
  filename: string,
  contentType?: string,
): request.Test {
  return client
    .post(`/api/${kind}`)
    .attach('file', data, { filename, contentType: contentType ?? 'application/octet-stream' });
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Resets the stored media between tests (t.reset() only empties the tables). */
export async function clearStoredMedia(t: TestApp): Promise<void> {
  rmSync(join(t.dataDir, 'media'), { recursive: true, force: true });
  rmSync(join(t.dataDir, 'tmp'), { recursive: true, force: true });
  await t.s3?.clear();
}

/** A multipart body written by hand, so a test controls the exact header bytes a client sends. */
export function rawMultipart(
  filenameHeaderValue: string,
  data: Buffer,
  boundary = 'kbtestboundary',
): { body: Buffer; contentType: string } {
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filenameHeaderValue}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        'utf8',
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
