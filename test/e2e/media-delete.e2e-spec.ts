import { Readable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Database } from '../../src/common/database/database';
import { MediaService } from '../../src/media/media.service';
import { Problem } from '../../src/common/problems/problem';
import { createTestApp, TestApp } from '../support/test-app';
import { png, SVG_WITH_SCRIPT } from '../support/images';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { Client, signedIn } from '../support/users';
import {
  clearStoredMedia,
  filesUnder,
  sha256,
  storedMedia,
  upload,
} from '../support/media-support';

describe('media deletion and the MediaService API', () => {
  let t: TestApp;
  let editor: Client;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp({ IMAGE_MAX_BYTES: '50000' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    editor = await signedIn(t, 'editor');
    admin = await signedIn(t, 'admin');
  });

  const count = async (): Promise<number> => {
    const [{ n }] = await t.get(DataSource).query('SELECT COUNT(*) AS n FROM media');
    return Number(n);
  };

  it('deletes the row and the stored file; the file stays while another row shares it', async () => {
    const data = png(6, 6);
    const a = await upload(editor, 'images', data, 'a.png').expect(201);
    const b = await upload(editor, 'attachments', data, 'b.png').expect(201);
    await editor.delete(`/api/images/${a.body.id}`).expect(204);
    expect(await count()).toBe(1);
    expect(await storedMedia(t)).toEqual([sha256(data)]);
    await editor.get(b.body.url).expect(200);
    await admin.delete(`/api/attachments/${b.body.id}`).expect(204);
    expect(await count()).toBe(0);
    expect(await storedMedia(t)).toEqual([]);
    await editor
      .delete(`/api/attachments/${b.body.id}`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'attachment_not_found')));
  });

  it('refuses to delete media that live or binned pages reference, naming them', async () => {
    const image = await upload(editor, 'images', png(2, 2), 'diagram.png').expect(201);
    const file = await upload(editor, 'attachments', Buffer.from('data'), 'data.csv').expect(201);
    await createPage(editor, 'guides/setup', {
      content: `# Setup\n\n![diagram](${image.body.url})\n\n[data](${file.body.url})`,
    });
    await createPage(editor, 'old', {
      content: `# Old\n\n![again](/api/images/${image.body.id}/content)`,
    });

    const refused = await editor.delete(`/api/images/${image.body.id}`).expect(409);
    expect(refused.body).toEqual(
      problem(409, 'media_in_use', { slugs: ['guides/setup', 'old'], hiddenReferences: 0 }),
    );
    await editor
      .delete(`/api/attachments/${file.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(409, 'media_in_use', { slugs: ['guides/setup'], hiddenReferences: 0 }),
        ),
      );

    // A binned page may come back, so it still protects its media; only admins see its name.
    await admin.delete('/api/pages/old').expect(204);
    await updatePage(editor, 'guides/setup', { content: '# Setup\n\nNo pictures any more.' });
    await editor
      .delete(`/api/images/${image.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(problem(409, 'media_in_use', { slugs: [], hiddenReferences: 1 })),
      );
    await admin
      .delete(`/api/images/${image.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(409, 'media_in_use', { slugs: ['old'], hiddenReferences: 0 }),
        ),
      );
    await editor.delete(`/api/attachments/${file.body.id}`).expect(204);
    expect(await count()).toBe(1);
    await editor.get(image.body.url).expect(200);
  });

  describe('MediaService', () => {
    it('stores from a path and from a stream, validated like uploads, and reads the content back', async () => {
      const media = t.get(MediaService);
      const data = png(9, 4);
      const path = join(t.dataDir, 'source.png');
      writeFileSync(path, data);
      const fromPath = await media.storeFile(path, 'dir/source.png', 'image', editor.user!.id);
      expect(fromPath).toMatchObject({
        kind: 'image',
        filename: 'source.png',
        mimeType: 'image/png',
        width: 9,
        height: 4,
        size: data.length,
      });
      expect(fromPath.uploadedBy).toMatchObject({ id: editor.user!.id });
      const fromStream = await media.storeFile(
        Readable.from([Buffer.from('hello '), Buffer.from('world')]),
        'note.txt',
        'attachment',
        null,
      );
      expect(fromStream).toMatchObject({
        kind: 'attachment',
        mimeType: 'text/plain; charset=utf-8',
        size: 11,
        uploadedBy: null,
      });

      await expect(media.findById(fromPath.id)).resolves.toEqual(fromPath);
      await expect(media.findById('00000000-0000-4000-8000-000000000000')).resolves.toBeNull();
      await expect(media.readContent(fromStream.id)).resolves.toEqual(Buffer.from('hello world'));
      const opened = await media.openContent(fromPath.id);
      expect({ mimeType: opened.mimeType, size: opened.size, filename: opened.filename }).toEqual({
        mimeType: 'image/png',
        size: data.length,
        filename: 'source.png',
      });
      opened.stream.destroy();

      await expect(
        media.storeFile(Readable.from([SVG_WITH_SCRIPT]), 'x.svg', 'image', null),
      ).rejects.toMatchObject({
        status: 415,
        code: 'unsupported_image_type',
      });
      await expect(
        media.storeFile(Readable.from([Buffer.alloc(60_000)]), 'big.png', 'image', null),
      ).rejects.toBeInstanceOf(Problem);
      expect(filesUnder(t, 'tmp')).toEqual([]);
    });

    it('joins a caller transaction; after a rollback removeOrphanFiles deletes only unreferenced bytes', async () => {
      const media = t.get(MediaService);
      const shared = png(3, 1);
      const kept = await media.storeFile(Readable.from([shared]), 'kept.png', 'image', null);
      const lonely = png(1, 3);
      const stored: string[] = [];
      await expect(
        t.get(Database).transaction(async (tx) => {
          stored.push(
            (await media.storeFile(Readable.from([shared]), 'again.png', 'image', null, tx)).sha256,
          );
          stored.push(
            (await media.storeFile(Readable.from([lonely]), 'lonely.png', 'image', null, tx))
              .sha256,
          );
          throw new Error('import failed');
        }),
      ).rejects.toThrow('import failed');
      expect(await count()).toBe(1);
      expect(await storedMedia(t)).toEqual([sha256(shared), sha256(lonely)].sort());
      await media.removeOrphanFiles(stored);
      expect(await storedMedia(t)).toEqual([sha256(shared)]);
      await expect(media.readContent(kept.id)).resolves.toEqual(shared);
    });
  });
});
