import { gif, jpeg, png, webp } from '../../../test/support/images';
import { etagMatches } from '../../common/http/etag';
import { decideRange } from '../http/content-response';
import { detectAttachmentType, detectImageType, looksLikeText } from './file-type';
import { contentDisposition, sanitizeFilename, withImageExtension } from './filename';
import { readImageSize } from './image-size';

const reader = (data: Buffer) => (offset: number, length: number) =>
  Promise.resolve(data.subarray(offset, offset + length));

describe('sanitizeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\a.png', 'a.png'],
    ['a\u0000b\u0007c\u001f\u007f.png', 'abc.png'],
    ['evil\u202egnp.exe', 'evilgnp.exe'],
    ['"quoted" \'single\' `tick`.txt', '_quoted_ _single_ _tick_.txt'],
    ['a<b>c:d*e?f|g.txt', 'a_b_c_d_e_f_g.txt'],
    ['  spaced\t\tout  .txt  ', 'spaced out .txt'],
    ['...', 'fallback'],
    ['', 'fallback'],
    ['Cafe\u0301.png', 'Café.png'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFilename(input, 'fallback')).toBe(expected);
  });

  it('caps at 200 characters and keeps the extension', () => {
    const name = sanitizeFilename(`${'x'.repeat(500)}.jpeg`, 'f');
    expect(name).toHaveLength(200);
    expect(name.endsWith('.jpeg')).toBe(true);
  });
});

describe('withImageExtension', () => {
  it.each([
    ['photo.JPG', 'image/jpeg', 'photo.JPG'],
    ['photo.jpeg', 'image/jpeg', 'photo.jpeg'],
    ['photo.png', 'image/jpeg', 'photo.png.jpg'],
    ['page.html', 'image/gif', 'page.html.gif'],
    ['noext', 'image/webp', 'noext.webp'],
    [`${'y'.repeat(200)}`, 'image/png', `${'y'.repeat(196)}.png`],
  ])('%s as %s → %s', (name, mime, expected) => {
    expect(withImageExtension(name, mime)).toBe(expected);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and an RFC 5987 UTF-8 name', () => {
    expect(contentDisposition('attachment', "Résumé (final)'s.pdf")).toBe(
      `attachment; filename="R_sum_ (final)'s.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29%27s.pdf`,
    );
  });
});

describe('type detection', () => {
  it.each([
    ['png', png(2, 2), 'image/png'],
    ['jpeg', jpeg(9, 9), 'image/jpeg'],
    ['gif', gif(2, 2), 'image/gif'],
    ['webp', webp(2, 2), 'image/webp'],
  ])('recognises %s', (_n, data, mime) => {
    expect(detectImageType(data)).toBe(mime);
  });

  it('refuses lookalikes', () => {
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(detectImageType(Buffer.from('GIF90a'))).toBeNull();
  });

  it.each([
    ['<html><body>x</body></html>', 'x.html', 'application/octet-stream'],
    ['\uFEFF  <?xml version="1.0"?><svg/>', 'x.svg', 'application/octet-stream'],
    ['<!-- comment --><script>alert(1)</script>', 'x.txt', 'application/octet-stream'],
    ['{"a": 1}', 'data.json', 'application/json'],
    ['# Title', 'readme.md', 'text/markdown; charset=utf-8'],
    ['hello', 'hello.html', 'text/plain; charset=utf-8'],
  ])('types attachment text %j', (text, name, mime) => {
    expect(detectAttachmentType(Buffer.from(text), true, name)).toBe(mime);
  });

  it('keeps office types only for ZIP bytes', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    expect(detectAttachmentType(zip, true, 'a.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(detectAttachmentType(zip, true, 'a.zip')).toBe('application/zip');
    expect(detectAttachmentType(Buffer.from('text'), true, 'a.docx')).toBe(
      'text/plain; charset=utf-8',
    );
  });

  it('does not mistake a UTF-8 character cut at the end of the sniffed head for binary', () => {
    const text = Buffer.from('aaa€');
    expect(looksLikeText(text.subarray(0, text.length - 1), false)).toBe(true);
    expect(looksLikeText(text.subarray(0, text.length - 1), true)).toBe(false);
  });
});

describe('readImageSize', () => {
  it.each([
    ['image/png', png(17, 3), 17, 3],
    ['image/jpeg', jpeg(640, 480, 100_000), 640, 480],
    ['image/gif', gif(9, 300), 9, 300],
    ['image/webp', webp(16_383, 2), 16_383, 2],
  ] as const)('reads %s dimensions', async (mime, data, width, height) => {
    await expect(readImageSize(mime, reader(data))).resolves.toEqual({ width, height });
  });

  it.each([
    ['extended (VP8X)', 'VP8X', [10, 0, 0, 0, 0, 0, 0, 0, 0x1f, 0x03, 0, 0xc7, 0, 0], 800, 200],
    [
      'lossy (VP8)',
      'VP8 ',
      [0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00],
      320,
      240,
    ],
  ] as const)('reads %s WebP headers', async (_name, chunk, bytes, width, height) => {
    const webpHeader = Buffer.concat([
      Buffer.from(`RIFF\0\0\0\0WEBP${chunk}`, 'latin1'),
      Buffer.from(bytes),
    ]);
    await expect(readImageSize('image/webp', reader(webpHeader))).resolves.toEqual({
      width,
      height,
    });
  });

  it('gives null for truncated or absurd headers', async () => {
    await expect(readImageSize('image/png', reader(png(2, 2).subarray(0, 20)))).resolves.toBeNull();
    await expect(
      readImageSize('image/jpeg', reader(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))),
    ).resolves.toBeNull();
    await expect(readImageSize('image/gif', reader(gif(0, 0)))).resolves.toBeNull();
  });
});

describe('ranges and validators', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-9', { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=95-', { kind: 'partial', range: { start: 95, end: 99 } }],
    ['bytes=-10', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-500', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=50-5000', { kind: 'partial', range: { start: 50, end: 99 } }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1, 3-4', { kind: 'full' }],
    ['bytes=5-1', { kind: 'full' }],
    ['lines=1-2', { kind: 'full' }],
  ])('Range %j of 100 bytes', (header, decision) => {
    expect(decideRange(header, 100)).toEqual(decision);
  });

  it('matches If-None-Match weakly, lists and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
