import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createTestApp, TestApp } from '../support/test-app';
import { png } from '../support/images';
import { Client, signedIn } from '../support/users';
import {
  binary,
  clearStoredMedia,
  filesUnder,
  rawMultipart,
  sha256,
  storedMedia,
  upload,
} from '../support/media-support';

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('media under abort and concurrency', () => {
  let t: TestApp;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    editor = await signedIn(t, 'editor');
  });

  it('removes the temp file when the client goes away mid-upload', async () => {
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { body, contentType } = rawMultipart('partial.bin', Buffer.alloc(4 * 1024 * 1024, 3));
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${editor.auth.cookie}\r\nSec-Fetch-Site: same-origin\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, 1024 * 1024));
      // The upload is being written to the temp folder while the body streams in...
      await waitFor(() => filesUnder(t, 'tmp').length === 1);
      socket.destroy();
      // ...and when the client disappears the partial file goes, with nothing stored.
      await waitFor(() => filesUnder(t, 'tmp').length === 0);
      expect(await storedMedia(t)).toEqual([]);
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM media');
      expect(Number(n)).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('stores simultaneous identical uploads once, and each is readable', async () => {
    const data = png(12, 12);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(editor, 'images', data, `same-${i}.png`)),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await storedMedia(t)).toEqual([sha256(data)]);
    for (const r of results) {
      const res = await editor.get(r.body.url).buffer(true).parse(binary).expect(200);
      expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
    }
    expect(filesUnder(t, 'tmp')).toEqual([]);
  });

  it('never loses shared bytes when a delete and an upload of the same content race', async () => {
    const data = png(5, 7);
    for (let round = 0; round < 8; round++) {
      const first = await upload(editor, 'images', data, 'first.png').expect(201);
      const [deleted, second] = await Promise.all([
        editor.delete(`/api/images/${first.body.id}`),
        upload(editor, 'images', data, 'second.png'),
      ]);
      expect([deleted.status, second.status]).toEqual([204, 201]);
      const res = await editor.get(second.body.url).buffer(true).parse(binary).expect(200);
      expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
      await editor.delete(`/api/images/${second.body.id}`).expect(204);
      expect(await storedMedia(t)).toEqual([]);
    }
  });
});
