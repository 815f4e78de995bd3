import { createHash } from 'node:crypto';
import request from 'supertest';
import { png } from '../support/images';
import type { Client } from '../support/users';

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Collects a response body as raw bytes whatever its type (supertest `.parse(binary)`). */
export function binary(
  res: request.Response,
  callback: (error: Error | null, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

export interface UploadedMedia {
  id: string;
  url: string;
  bytes: Buffer;
  filename: string;
  mimeType: string;
  sha256: string;
}

export async function uploadImage(
  client: Client,
  bytes: Buffer,
  filename: string,
): Promise<UploadedMedia> {
  const res = await client
    .post('/api/images')
    .attach('file', bytes, { filename, contentType: 'application/octet-stream' });
  if (res.status !== 201)
    throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    url: res.body.url,
    bytes,
    filename: res.body.filename,
    mimeType: res.body.mimeType,
    sha256: res.body.sha256,
  };
}

export async function uploadAttachment(
  client: Client,
  bytes: Buffer,
  filename: string,
): Promise<UploadedMedia> {
  const res = await client
    .post('/api/attachments')
    .attach('file', bytes, { filename, contentType: 'application/octet-stream' });
  if (res.status !== 201)
    throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    url: res.body.url,
    bytes,
    filename: res.body.filename,
    mimeType: res.body.mimeType,
    sha256: res.body.sha256,
  };
}

/** A small distinctive PNG (a few colours so the PDF keeps it as an image). */
export function testPng(seed = 1, size = 8): Buffer {
  return png(size, size, (x, y) => [
    (x * 31 + seed * 50) % 256,
    (y * 29 + seed * 70) % 256,
    (seed * 90) % 256,
  ]);
}

export async function setSiteVariables(
  admin: Client,
  variables: Record<string, string>,
): Promise<void> {
  await admin.put('/api/variables').send({ variables }).expect(200);
}
