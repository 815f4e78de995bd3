import { Readable } from 'node:stream';
import { docxWithText, pdfWithText } from '../../../test/support/documents';
import { ExtractFailed, extractableType, extractText, missingExtractor } from './extract-text';

const limits = { timeoutMs: 30_000, maxChars: 10_000 };
const from = (bytes: Buffer) => Readable.from([bytes]);

describe('extractText (a child process, bounded)', () => {
  it('reads the text of a PDF page by page', async () => {
    const { text, truncated } = await extractText(
      from(pdfWithText(['First line (with parentheses)', 'Second line'])),
      'application/pdf',
      limits,
    );
    expect(text).toContain('First line (with parentheses)');
    expect(text).toContain('Second line');
    expect(truncated).toBe(false);
  });

  it('cuts the text at maxChars and says so', async () => {
    const long = 'word '.repeat(2_000);
    const result = await extractText(
      from(docxWithText([long])),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      { ...limits, maxChars: 1_000 },
    );
    expect(result.text).toHaveLength(1_000);
    expect(result.truncated).toBe(true);
  });

  it('kills an extraction that outlives its time limit', async () => {
    await expect(
      extractText(from(pdfWithText(['slow'])), 'application/pdf', { ...limits, timeoutMs: 5 }),
    ).rejects.toThrow(new ExtractFailed('timed out after 5 ms'));
  });

  it('fails cleanly on a file that is not what its type says', async () => {
    await expect(
      extractText(from(Buffer.from('%PDF-1.4 nothing here')), 'application/pdf', limits),
    ).rejects.toBeInstanceOf(ExtractFailed);
    await expect(
      extractText(
        from(Buffer.from('not a zip')),
        'application/vnd.oasis.opendocument.text',
        limits,
      ),
    ).rejects.toBeInstanceOf(ExtractFailed);
  });

  it('knows which types it reads', () => {
    expect(extractableType('application/pdf')).toBe(true);
    expect(extractableType('text/markdown; charset=utf-8')).toBe(true);
    expect(extractableType('application/zip')).toBe(false);
    expect(extractableType('image/png')).toBe(false);
  });
});

describe('missingExtractor', () => {
  it('finds the script and pdf.js in place', () => {
    expect(missingExtractor()).toBeNull();
  });
});
