import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import type { S3StoreConfig } from '../../common/config/media-config';
import { ByteRange, MediaStorage, SHA256_HEX, StoredEntry, StoredObject } from './media-storage';

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/;

/** Parts of a multipart upload; files up to this size go up in one PutObject. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, ...) under `ab/cd/<sha256>`, the same layout
 * as on disk. An object appears complete or not at all (PutObject, or a multipart upload that
 * lib-storage aborts on failure), so a failed upload leaves nothing behind. Reads are streamed
 * from GetObject; a range is passed to S3 as a `Range` header.
 */
export class S3MediaStorage implements MediaStorage {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(config: S3StoreConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: S3-compatible servers differ in what they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  keyFor(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error('invalid sha256 key');
    return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  async put(sha256: string, sourcePath: string): Promise<void> {
    if (await this.exists(sha256)) {
      // Copying the object onto itself renews its LastModified (see MediaStorage.put).
      const key = this.keyFor(sha256);
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: key,
          CopySource: `${this.bucket}/${key}`,
          MetadataDirective: 'REPLACE',
        }),
      );
      return;
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyFor(sha256), Body: createReadStream(sourcePath) },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async stat(sha256: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyFor(sha256) }),
      );
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date() };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.stat(sha256)) !== null;
  }

  async createReadStream(sha256: string, range?: ByteRange): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.keyFor(sha256),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    const body = object.Body as Readable;
    if (!range) return body;
    const served = /^bytes (\d+)-(\d+)\//.exec(object.ContentRange ?? '');
    if (!served || Number(served[1]) !== range.start) {
      body.destroy();
      throw new Error(
        `the store answered "${object.ContentRange}" to bytes=${range.start}-${range.end}`,
      );
    }
    // Some S3-compatible servers (s3rver for bytes=0-0) send more than the range asked for.
    const wanted = range.end - range.start + 1;
    return Number(served[2]) === range.end ? body : firstBytes(body, wanted);
  }

  async delete(sha256: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyFor(sha256) }),
    );
  }

  async *list(): AsyncIterable<StoredEntry> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const match = KEY.exec(object.Key ?? '');
        if (match) yield { sha256: match[1], modifiedAt: object.LastModified ?? new Date() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }
}

/** The first `count` bytes of `source`, which is then closed. */
function firstBytes(source: Readable, count: number): Readable {
  let left = count;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left <= 0) return done();
      const part = chunk.length <= left ? chunk : chunk.subarray(0, left);
      left -= part.length;
      done(null, part);
      if (left === 0) {
        this.push(null);
        source.destroy();
      }
    },
  });
  source.on('error', (error) => out.destroy(error));
  return source.pipe(out);
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NotFound' ||
      error.name === 'NoSuchKey' ||
      error.$metadata.httpStatusCode === 404)
  );
}
