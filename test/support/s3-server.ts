import {
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
};

// The SDK's notice that its 2027 releases need Node 22 (docs/deploy.md says so once).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export const S3_TEST_BUCKET = 'kb-media';

/** A real S3-protocol server (s3rver) on 127.0.0.1 with one empty bucket, in a temp folder. */
export interface S3TestServer {
  endpoint: string;
  /** The MEDIA_STORE=s3 variables that point kb at this server. */
  env: Record<string, string>;
  client: S3Client;
  /** Every key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Empties the bucket. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Server(port = 0): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'kb-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_TEST_BUCKET }],
  });
  const { port: actualPort } = await server.run();
  const endpoint = `http://127.0.0.1:${actualPort}`;
  const env = {
    MEDIA_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_BUCKET: S3_TEST_BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const keys = async (): Promise<string[]> => {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await client.send(
        new ListObjectsV2Command({ Bucket: S3_TEST_BUCKET, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) out.push(item.Key!);
      token = page.NextContinuationToken;
    } while (token);
    return out.sort();
  };
  return {
    endpoint,
    env,
    client,
    keys,
    clear: async () => {
      const all = await keys();
      if (all.length === 0) return;
      await client.send(
        new DeleteObjectsCommand({
          Bucket: S3_TEST_BUCKET,
          Delete: { Objects: all.map((Key) => ({ Key })) },
        }),
      );
    },
    close: async () => {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
