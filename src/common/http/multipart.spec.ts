import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { BadRequestProblem, PayloadTooLargeProblem, Problem } from '../problems/problem';
import { MultipartOptions, readMultipart } from './multipart';

const BOUNDARY = 'spec-boundary';

function body(parts: { name: string; filename?: string; data: string }[]): Buffer {
  const chunks = parts.map((p) => {
    const file = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n${p.data}\r\n`;
  });
  return Buffer.from(`${chunks.join('')}--${BOUNDARY}--\r\n`);
}

/** A request carrying `data` (a PassThrough stands in for the socket). */
function request(data: Buffer, type = `multipart/form-data; boundary=${BOUNDARY}`) {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(req, {
    headers: { 'content-type': type, 'content-length': String(data.length) },
    complete: true,
  });
  setImmediate(() => req.end(data));
  return req;
}

describe('readMultipart', () => {
  let dataDir: string;
  const options = (extra: Partial<MultipartOptions> = {}): MultipartOptions => ({
    dataDir,
    maxBytes: 10_000,
    maxFiles: 2,
    fields: ['format'],
    fileFields: ['files'],
    unknownParts: 'report',
    notMultipart: () => new Problem(415, 'unsupported_media_type', 'multipart please'),
    tooLarge: () => new PayloadTooLargeProblem('too_large', 'too large'),
    tooManyFiles: () => new BadRequestProblem('too_many_files', 'too many'),
    ...extra,
  });
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'kb-multipart-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const leftOver = () =>
    existsSync(join(dataDir, 'tmp')) ? readdirSync(join(dataDir, 'tmp')) : [];

  it('streams files to temp files with their hash and reads the named fields', async () => {
    const parts = body([
      { name: 'format', data: 'markdown' },
      { name: 'other', data: 'x' },
      { name: 'files', filename: 'a.md', data: '# A' },
    ]);
    const result = await readMultipart(request(parts), options());
    expect(result.fields).toEqual({ format: 'markdown' });
    expect(result.problems).toEqual([
      { field: 'other', code: 'unknown_field', message: expect.any(String) },
    ]);
    expect(result.files).toHaveLength(1);
    const [file] = result.files;
    expect(file).toMatchObject({ field: 'files', clientName: 'a.md', size: 3 });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(file.path, 'utf8')).toBe('# A');
  });

  it('refuses another media type, a declared body over the limit and a file over its limit', async () => {
    await expect(
      readMultipart(request(Buffer.from('{}'), 'application/json'), options()),
    ).rejects.toMatchObject({ status: 415, code: 'unsupported_media_type' });
    const big = body([{ name: 'files', filename: 'big.md', data: 'x'.repeat(20_000) }]);
    await expect(readMultipart(request(big), options())).rejects.toMatchObject({
      code: 'too_large',
    });
    const file = body([{ name: 'files', filename: 'big.md', data: 'x'.repeat(2_000) }]);
    await expect(
      readMultipart(request(file), options({ maxFileBytes: 1_000 })),
    ).rejects.toMatchObject({ code: 'too_large' });
    expect(leftOver()).toEqual([]);
  });

  it('too many files and a malformed body are problems, and nothing is left on disk', async () => {
    const three = body(
      ['a', 'b', 'c'].map((name) => ({ name: 'files', filename: `${name}.md`, data: name })),
    );
    await expect(readMultipart(request(three), options())).rejects.toMatchObject({
      code: 'too_many_files',
    });
    const cut = body([{ name: 'files', filename: 'a.md', data: 'abc' }]).subarray(0, 60);
    await expect(readMultipart(request(cut), options())).rejects.toMatchObject({
      status: 400,
      code: 'invalid_multipart',
    });
    expect(leftOver()).toEqual([]);
  });
});
