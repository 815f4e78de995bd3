import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { filesUnder } from '../support/media-support';
import { count, postImport, zip } from '../support/import-helpers';

const MIB = 1024 * 1024;
const text = (s: string) => new TextEncoder().encode(s);

describe('POST /api/import: limits and hostile input (1 MiB budget, 20 entries)', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp({ IMPORT_MAX_BYTES: String(MIB), IMPORT_MAX_ENTRIES: '20' });
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());
  afterEach(async () => {
    // Whatever happened, nothing was written and no temp file stays behind.
    expect(await count(t, 'pages')).toBe(0);
    expect(filesUnder(t, 'tmp')).toEqual([]);
  });

  it('stops a ZIP bomb once the inflated bytes pass the budget (413)', async () => {
    const bomb = Buffer.from(zipSync({ 'a.md': new Uint8Array(8 * MIB) }, { level: 9 }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'bomb.zip', data: bomb }],
    }).expect(413);
    expect(res.body).toEqual(problem(413, 'import_too_large', { limit: MIB }));
  });

  it('counts nested ZIPs and several files against the same budget', async () => {
    const inner = zipSync({
      'a.md': new Uint8Array(600 * 1024).fill(35),
      'b.md': new Uint8Array(600 * 1024).fill(35),
    });
    const nested = Buffer.from(zipSync({ 'inner.zip': inner }));
    await postImport(admin, { format: 'markdown', files: [{ name: 'nested.zip', data: nested }] })
      .expect(413)
      .expect((r) => expect(r.body.code).toBe('import_too_large'));
    const half = zip({ 'a.md': `# A\n${'x'.repeat(600 * 1024)}` });
    await postImport(admin, {
      format: 'markdown',
      files: [
        { name: 'one.zip', data: half },
        { name: 'two.zip', data: half },
      ],
    })
      .expect(413)
      .expect((r) => expect(r.body.code).toBe('import_too_large'));
  });

  it('caps the number of entries (413)', async () => {
    const many = zip(
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}.md`, `# P${i}`])),
    );
    const res = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'many.zip', data: many }],
    }).expect(413);
    expect(res.body).toEqual(problem(413, 'import_too_many_entries', { limit: 20 }));
  });

  it('refuses a request declared larger than the limit before reading it (413)', async () => {
    const res = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'big.md', data: Buffer.alloc(MIB + 10, 65) }],
    }).expect(413);
    expect(res.body).toEqual(problem(413, 'import_request_too_large', { limit: MIB }));
  });

  it('cuts a streamed (chunked) request at the limit while it arrives (413)', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as AddressInfo;
    const boundary = 'kbboundary';
    const status = await new Promise<{ status: number; body: string; type: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: address.port,
            method: 'POST',
            path: '/api/import',
            headers: {
              Cookie: admin.auth.cookie!,
              'Sec-Fetch-Site': 'same-origin',
              'Content-Type': `multipart/form-data; boundary=${boundary}`,
              'Transfer-Encoding': 'chunked',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () =>
              resolve({ status: res.statusCode!, body, type: String(res.headers['content-type']) }),
            );
          },
        );
        req.on('error', reject);
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\nmarkdown\r\n`,
        );
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.md"\r\nContent-Type: text/markdown\r\n\r\n# Big\n`,
        );
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = (): void => {
          while (sent < 3 * MIB) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        pump();
      },
    );
    expect(status.status).toBe(413);
    expect(status.type).toMatch(PROBLEM_CONTENT_TYPE);
    expect(JSON.parse(status.body)).toMatchObject({
      status: 413,
      code: 'import_request_too_large',
    });
  });

  it('refuses zip-slip, absolute, drive-letter, backslash and device names, even with skipInvalid (422)', async () => {
    const hostile = zip({
      '../../etc/evil.txt': 'x',
      '/etc/abs.md': '# Abs',
      'C:/Windows/drive.md': '# Drive',
      'docs\\win.md': '# Win',
      'docs/CON.md': '# Con',
      'ok.md': '# Ok',
    });
    const res = await postImport(admin, {
      format: 'markdown',
      skipInvalid: true,
      files: [{ name: 'evil.zip', data: hostile }],
    }).expect(422);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          {
            field: 'files[evil.zip]',
            code: 'unsafe_entry_name',
            message: expect.stringContaining('"../../etc/evil.txt"'),
          },
          {
            field: 'files[evil.zip]',
            code: 'unsafe_entry_name',
            message: expect.stringContaining('"/etc/abs.md"'),
          },
          {
            field: 'files[evil.zip]',
            code: 'unsafe_entry_name',
            message: expect.stringContaining('"C:/Windows/drive.md"'),
          },
          {
            field: 'files[evil.zip]',
            code: 'unsafe_entry_name',
            message: expect.stringContaining('"docs\\win.md"'),
          },
          {
            field: 'files[evil.zip]',
            code: 'unsafe_entry_name',
            message: expect.stringContaining('"docs/CON.md"'),
          },
        ],
      }),
    );
  });

  it('refuses symbolic links inside ZIPs (422)', async () => {
    const withLink = Buffer.from(
      zipSync({
        'ok.md': text('# Ok'),
        'passwd.md': [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
      }),
    );
    const res = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'link.zip', data: withLink }],
    }).expect(422);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          {
            field: 'files[link.zip]',
            code: 'unsafe_entry_link',
            message: expect.stringContaining('"passwd.md"'),
          },
        ],
      }),
    );
  });

  it('names corrupt and empty ZIPs (422)', async () => {
    const res = await postImport(admin, {
      format: 'markdown',
      files: [
        { name: 'corrupt.zip', data: Buffer.from('PK\u0003\u0004 this is not really a zip') },
        { name: 'empty.zip', data: Buffer.from(zipSync({})) },
      ],
    }).expect(422);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          {
            field: 'files[corrupt.zip]',
            code: 'zip_corrupt',
            message: expect.stringContaining('corrupt.zip'),
          },
          { field: 'files[empty.zip]', code: 'zip_empty', message: '"empty.zip" holds no files.' },
        ],
      }),
    );
  });

  it('checks the form: format required and never guessed, files required, booleans and prefix valid', async () => {
    await postImport(admin, { files: [{ name: 'a.md', data: '# A' }] })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [{ field: 'format', code: 'required', message: expect.any(String) }],
          }),
        ),
      );
    await postImport(admin, { format: 'docx', prefix: 'a/../b', dryRun: 'maybe', files: [] })
      .expect(422)
      .expect((r) =>
        expect(
          r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
        ).toEqual([
          ['format', 'invalid_format'],
          ['prefix', 'invalid_slug'],
          ['dryRun', 'invalid_boolean'],
          ['files', 'required'],
        ]),
      );
    await postImport(admin, { format: 'markdown', files: [{ name: 'pages.json', data: '[]' }] })
      .expect(422)
      .expect((r) =>
        expect(r.body.errors).toEqual([
          { field: 'files[pages.json]', code: 'wrong_format', message: expect.any(String) },
        ]),
      );
    await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'latin1.md', data: Buffer.from('# Caf\xe9', 'latin1') }],
    })
      .expect(422)
      .expect((r) =>
        expect(r.body.errors).toEqual([
          {
            field: 'files[latin1.md]',
            code: 'invalid_encoding',
            message: '"latin1.md" is not UTF-8 text.',
          },
        ]),
      );
    await admin
      .post('/api/import')
      .send({ format: 'markdown' })
      .expect(415)
      .expect((r) => expect(r.body).toEqual(problem(415, 'unsupported_media_type')));
  });
});

/**
 * A one-entry ZIP around an already deflated stream, declaring `declaredSize` (an honest archive
 * declares the real size; a bomb may understate it so that only the inflated bytes tell).
 */
function deflatedZip(name: string, deflated: Buffer, declaredSize: number, crc: number): Buffer {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const directoryOffset = local.length + nameBytes.length + deflated.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, nameBytes, deflated, central, nameBytes, end]);
}

describe('POST /api/import: default 100 MiB budget', () => {
  let t: TestApp;
  let admin: Client;
  // 150 MiB of zeros: about 150 KiB deflated.
  const zeros = Buffer.alloc(150 * MIB);
  const deflated = deflateRawSync(zeros, { level: 1 });
  const zerosCrc = crc32(zeros);
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());
  afterEach(async () => {
    expect(await count(t, 'pages')).toBe(0);
    expect(filesUnder(t, 'tmp')).toEqual([]);
  });

  /** Posts the bomb, expects the 413 budget problem, returns the milliseconds it took. */
  async function rejectBomb(name: string, data: Buffer): Promise<number> {
    const started = performance.now();
    const res = await postImport(admin, { format: 'markdown', files: [{ name, data }] }).expect(
      413,
    );
    const elapsed = performance.now() - started;
    expect(res.body).toEqual(problem(413, 'import_too_large', { limit: 100 * MIB }));
    return elapsed;
  }

  it('rejects a 150 MiB ZIP bomb that understates its size quickly, inflating only to the budget', async () => {
    expect(deflated.length).toBeLessThan(MIB);
    // The headers claim 1 KiB: only the bytes really inflated can stop it.
    const bomb = deflatedZip('zeros.md', deflated, 1024, zerosCrc);
    const elapsed = await rejectBomb('bomb.zip', bomb);
    // How long it takes is the benchmark's business (KB_REPORT_TIMINGS prints it), not a test's.
    if (process.env.KB_REPORT_TIMINGS) console.log(`lying 150 MiB bomb: ${elapsed.toFixed(0)} ms`);
  });

  it('rejects an honest 150 MiB ZIP bomb, nested in another ZIP, before inflating it', async () => {
    const inner = deflatedZip('zeros.md', deflated, zeros.length, zerosCrc);
    const outer = Buffer.from(zipSync({ 'inner.zip': inner }, { level: 0 }));
    const elapsed = await rejectBomb('bomb.zip', outer);
    if (process.env.KB_REPORT_TIMINGS) console.log(`nested 150 MiB bomb: ${elapsed.toFixed(0)} ms`);
  });

  it('rejects a 150 MiB gzip bomb (.md.gz) the same way', async () => {
    const elapsed = await rejectBomb('zeros.md.gz', gzipSync(zeros, { level: 1 }));
    if (process.env.KB_REPORT_TIMINGS) console.log(`150 MiB gzip bomb: ${elapsed.toFixed(0)} ms`);
  });
});
