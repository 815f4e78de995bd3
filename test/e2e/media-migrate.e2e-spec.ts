import { GetObjectCommand } from '@aws-sdk/client-s3';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { S3MediaStorage } from '../../src/media/storage/s3-storage';
import { png } from '../support/images';
import { runEntry } from '../support/kb-process';
import { S3_TEST_BUCKET, S3TestServer, startS3Server } from '../support/s3-server';
import { createTestApp, TestApp } from '../support/test-app';
import { signedIn } from '../support/users';
import { sha256, upload } from '../support/media-support';

/**
 * `npm run cli -- media:migrate --to s3` as its own process: local media of a running app's
 * database into a real s3rver bucket, verified, resumable.
 */
describe('media:migrate --to s3', () => {
  let t: TestApp;
  let s3: S3TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ MEDIA_STORE: 'local' });
    s3 = await startS3Server();
    env = {
      KB_DATA_DIR: t.dataDir,
      DB_TYPE: t.config.database.type,
      ...(t.config.database.url ? { DATABASE_URL: t.config.database.url } : {}),
      ...s3.env,
      MEDIA_STORE: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  const migrate = (args = ['--to', 's3']) => runEntry('cli', env, ['media:migrate', ...args]);
  const localPath = (hash: string) =>
    join(t.dataDir, 'media', hash.slice(0, 2), hash.slice(2, 4), hash);
  const keyOf = (hash: string) => `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  const bucketBytes = async (hash: string): Promise<Buffer> => {
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: S3_TEST_BUCKET, Key: keyOf(hash) }),
    );
    return Buffer.from(await object.Body!.transformToByteArray());
  };

  it('copies every referenced content once, verified, and resumes where a run stopped', async () => {
    const editor = await signedIn(t, 'editor');
    const images = [png(10, 10), png(20, 12), png(7, 30)];
    const attachment = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 3)]);
    for (const [i, data] of images.entries())
      await upload(editor, 'images', data, `${i}.png`).expect(201);
    await upload(editor, 'images', images[0], 'again.png').expect(201); // same bytes, one content
    await upload(editor, 'attachments', attachment, 'a.pdf').expect(201);
    const hashes = [...images, attachment].map(sha256);

    // A run that stopped after its first copy: that content is already in the bucket.
    const earlier = new S3MediaStorage(s3Config(s3));
    await earlier.put(hashes[1], localPath(hashes[1]));
    earlier.onModuleDestroy();

    const first = await migrate();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const hash of hashes) {
      const expected = hash === hashes[1] ? 'already in the target' : 'copied and verified';
      expect(lines.some((line) => line.endsWith(`\t${hash}\t${expected}`))).toBe(true);
    }
    expect(lines.map((line) => line.split('\t')[0]).slice(0, 4)).toEqual(['1', '2', '3', '4']);
    expect(lines[4]).toBe('media:migrate: 3 copied, 1 already there, 0 failed');
    expect(await s3.keys()).toEqual(hashes.map(keyOf).sort());
    for (const [i, data] of [...images, attachment].entries()) {
      expect(Buffer.compare(await bucketBytes(hashes[i]), data)).toBe(0);
    }

    const again = await migrate();
    expect(again.status).toBe(0);
    expect(again.stdout.trim().split('\n').pop()).toBe(
      'media:migrate: 0 copied, 4 already there, 0 failed',
    );
  });

  it('refuses a damaged or missing local file, leaves nothing of it in the bucket and says so', async () => {
    const editor = await signedIn(t, 'editor');
    const damaged = png(33, 33);
    const gone = png(44, 44);
    await upload(editor, 'images', damaged, 'd.png').expect(201);
    await upload(editor, 'images', gone, 'g.png').expect(201);
    writeFileSync(localPath(sha256(damaged)), Buffer.alloc(damaged.length, 1));
    rmSync(localPath(sha256(gone)));

    const run = await migrate();
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`\t${sha256(damaged)}\tFAILED: the copy does not hash to its key`);
    expect(run.stdout).toContain(`\t${sha256(gone)}\tFAILED: missing from the local store`);
    expect(run.stdout).toContain('0 copied, 4 already there, 2 failed');
    const keys = await s3.keys();
    expect(keys).not.toContain(keyOf(sha256(damaged)));
    expect(keys).not.toContain(keyOf(sha256(gone)));

    // Repaired, the next run copies just that one.
    writeFileSync(localPath(sha256(damaged)), damaged);
    const resumed = await migrate();
    expect(resumed.stdout).toContain('1 copied, 4 already there, 1 failed');
    expect(Buffer.compare(await bucketBytes(sha256(damaged)), damaged)).toBe(0);
  });

  it('knows one target', async () => {
    const run = await migrate(['--to', 'gcs']);
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('--to s3 is the one target');
  });
});

function s3Config(s3: S3TestServer) {
  return {
    kind: 's3' as const,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: S3_TEST_BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
}
