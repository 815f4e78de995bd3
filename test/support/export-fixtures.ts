import { png } from './images';
import type { Client } from './users';
import { binary, sha256, upload } from './media-support';

export { binary, sha256 };

export interface UploadedMedia {
  id: string;
  url: string;
  bytes: Buffer;
  filename: string;
  mimeType: string;
  sha256: string;
}

async function uploadMedia(
  client: Client,
  kind: 'images' | 'attachments',
  bytes: Buffer,
  filename: string,
): Promise<UploadedMedia> {
  const res = await upload(client, kind, bytes, filename);
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

export const uploadImage = (client: Client, bytes: Buffer, filename: string) =>
  uploadMedia(client, 'images', bytes, filename);
export const uploadAttachment = (client: Client, bytes: Buffer, filename: string) =>
  uploadMedia(client, 'attachments', bytes, filename);

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
