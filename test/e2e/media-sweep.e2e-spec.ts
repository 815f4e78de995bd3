import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImportJobEntity } from '../../src/import/jobs/entities/import-job.entity';
import { ImportJobsRepository } from '../../src/import/jobs/import-jobs.repository';
import { MediaSweeper } from '../../src/media/media-sweeper';
import { MEDIA_STORAGE, MediaStorage } from '../../src/media/storage/media-storage';
import { png } from '../support/images';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { binary, clearStoredMedia, sha256, storedMedia, upload } from '../support/media-support';

const GRACE_SECONDS = 600;
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

/**
 * Issue 9, item 10: stored media no row references and stale temp files are swept, but never
 * content younger than the grace period, content an import in progress may have stored (its
 * row is uncommitted) or that import's upload folder. The same on disk and in S3.
 */
describe.each(['local', 's3'] as const)('media sweep (%s store)', (store) => {
  let t: TestApp;
  let admin: Client;
  let storage: MediaStorage;
  let sweeper: MediaSweeper;

  beforeAll(async () => {
    t = await createTestApp({
      MEDIA_STORE: store,
      MEDIA_SWEEP_GRACE_SECONDS: String(GRACE_SECONDS),
      MEDIA_SWEEP_INTERVAL_SECONDS: '0',
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    admin = await signedIn(t, 'admin');
    storage = t.get<MediaStorage>(MEDIA_STORAGE);
    sweeper = t.get(MediaSweeper);
    await sweeper.sweep(); // the start-up sweep, if it still runs
  });

  /** Stores content with no media row, as an import killed before its commit leaves it. */
  async function orphan(): Promise<string> {
    const data = randomBytes(64);
    const path = join(t.dataDir, `orphan-${randomUUID()}`);
    writeFileSync(path, data);
    await storage.put(sha256(data), path);
    return sha256(data);
  }

  async function referencedImage(): Promise<{ sha256: string; url: string; data: Buffer }> {
    const data = png(3, 2, () => [randomBytes(1)[0], 1, 2]);
    const res = await upload(admin, 'images', data, 'kept.png').expect(201);
    await admin
      .post('/api/pages')
      .send({
        slug: `uses-${randomUUID().slice(0, 8)}`,
        title: 'Uses',
        content: `![k](${res.body.url})`,
      })
      .expect(201);
    return { sha256: res.body.sha256 as string, url: res.body.url as string, data };
  }

  function tempEntry(name: string, age: number, folder = false): string {
    const root = join(t.dataDir, 'tmp');
    const path = join(root, name);
    const file = folder ? join(path, 'part-1') : path;
    mkdirSync(folder ? path : root, { recursive: true });
    writeFileSync(file, 'partial upload');
    const at = ago(age);
    utimesSync(file, at, at);
    if (folder) utimesSync(path, at, at);
    return path;
  }

  it('keeps orphans inside the grace period, then deletes them; media with rows stay', async () => {
    const kept = await referencedImage();
    const [a, b] = [await orphan(), await orphan()];
    expect(await storedMedia(t)).toEqual([kept.sha256, a, b].sort());
    // Storing content that is there already renews it (S3: a copy onto itself) and adds nothing.
    const again = join(t.dataDir, 'again');
    writeFileSync(again, 'x');
    await storage.put(kept.sha256, again);
    expect((await storage.stat(kept.sha256))?.size).toBe(kept.data.length);

    await expect(sweeper.sweep()).resolves.toEqual({ media: 0, temp: 0 });
    expect(await storedMedia(t)).toEqual([kept.sha256, a, b].sort());

    await expect(sweeper.sweep(later(GRACE_SECONDS + 120))).resolves.toMatchObject({ media: 2 });
    expect(await storedMedia(t)).toEqual([kept.sha256]);
    const res = await admin.get(kept.url).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(res.body as Buffer, kept.data)).toBe(0);

    // Sweeping again (another instance doing the same) finds nothing and fails on nothing.
    await expect(sweeper.sweep(later(GRACE_SECONDS + 120))).resolves.toEqual({ media: 0, temp: 0 });
  });

  it('removes stale temp files and upload folders, keeps fresh ones', async () => {
    const fresh = tempEntry('upload-fresh', 5);
    const freshFolder = tempEntry('import-fresh', 5, true);
    const stale = tempEntry('upload-stale', GRACE_SECONDS + 60);
    const staleFolder = tempEntry('import-stale', GRACE_SECONDS + 60, true);
    await expect(sweeper.sweep()).resolves.toEqual({ media: 0, temp: 2 });
    expect([fresh, freshFolder, stale, staleFolder].map((p) => existsSync(p))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('leaves alone what an import still queued or running may have stored, and its upload', async () => {
    const uploadFolder = tempEntry(`import-${randomUUID()}`, GRACE_SECONDS * 3, true);
    const owner = await signedIn(t, 'admin');
    const me = (await owner.get('/api/me').expect(200)).body as { id: string; username: string };
    const job = Object.assign(new ImportJobEntity(), {
      id: randomUUID(),
      state: 'queued',
      format: 'markdown',
      dryRun: false,
      createdBy: me.id,
      createdAt: new Date(),
      startedAt: null,
      finishedAt: null,
      request: {
        options: {},
        tempDir: uploadFolder,
        files: [],
        receivedBytes: 0,
        createdBy: { id: me.id, username: me.username, displayName: me.username },
      },
      progress: {},
      report: null,
      problem: null,
      cancelRequested: false,
      leaseOwner: null,
      leaseExpiresAt: later(60),
    });
    await t.get(ImportJobsRepository).insert(job);
    const stored = await orphan();

    await sweeper.sweep(later(GRACE_SECONDS * 2));
    expect(await storedMedia(t)).toEqual([stored]);
    expect(existsSync(join(uploadFolder, 'part-1'))).toBe(true);

    // Once the job has ended, both go.
    await t.dataSource
      .getRepository(ImportJobEntity)
      .update({ id: job.id }, { state: 'failed', finishedAt: new Date() });
    await expect(sweeper.sweep(later(GRACE_SECONDS * 2))).resolves.toEqual({ media: 1, temp: 1 });
    expect(await storedMedia(t)).toEqual([]);
    expect(existsSync(uploadFolder)).toBe(false);
  });

  if (store === 'local') {
    it('keeps an old orphan that an import stores again (put renews it), removes the other', async () => {
      const [reused, other] = [await orphan(), await orphan()];
      const old = ago(GRACE_SECONDS * 2);
      for (const sha of [reused, other]) {
        utimesSync(join(t.dataDir, 'media', sha.slice(0, 2), sha.slice(2, 4), sha), old, old);
      }
      const again = join(t.dataDir, 'again');
      writeFileSync(again, 'x');
      // put() takes the caller's word for the hash; the content is already there.
      await storage.put(reused, again);
      await expect(sweeper.sweep()).resolves.toMatchObject({ media: 1 });
      expect(await storedMedia(t)).toEqual([reused]);
    });
  }
});
