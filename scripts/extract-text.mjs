#!/usr/bin/env node
// The text of one attached document, for search (src/media/text/attachment-text.ts runs this in
// a child process: off the server's event loop, killed at a time limit, with a capped heap).
// Usage: extract-text.mjs <mime-type> <max-chars> < bytes  →  stdout: {"text", "truncated"}.
//
// - PDF: Mozilla's pdf.js (pdfjs-dist), text content page after page; no eval, no fonts
//   loaded, no scripting, no XFA: nothing in the file is executed.
// - DOCX / ODT: the ZIP's one XML part (word/document.xml, content.xml) inflated with fflate
//   (the entry's declared size is checked first, so a ZIP bomb is refused) and read with saxes:
//   the text of its text nodes, a line per paragraph or heading.
// - Plain text, Markdown, CSV: the bytes as UTF-8.
import { unzipSync } from 'fflate';
import saxes from 'saxes';

const [mimeType = '', maxCharsArg = '1000000'] = process.argv.slice(2);
const maxChars = Number(maxCharsArg);
/** Largest XML part a DOCX/ODT may inflate to. */
const MAX_XML_BYTES = 64 * 1024 * 1024;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const ODT = 'application/vnd.oasis.opendocument.text';

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function pdfText(bytes) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  }).promise;
  let text = '';
  for (let n = 1; n <= document.numPages && text.length < maxChars; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    for (const item of content.items) {
      if (typeof item.str !== 'string') continue;
      // Items are runs of one font; the PDF's own spaces are in them (a ligature such as
      // "fl" can be an item of its own, so nothing is added between items but line ends).
      text += item.str + (item.hasEOL ? '\n' : '');
    }
    text += '\n\n';
    page.cleanup();
  }
  await document.destroy();
  return text;
}

/** The text of an office document's XML part: text nodes, a newline after each block. */
function xmlText(bytes, part, blocks, spaces) {
  const files = unzipSync(new Uint8Array(bytes), {
    filter: (file) => {
      if (file.name !== part) return false;
      if (file.originalSize > MAX_XML_BYTES) throw new Error(`${part} is too large`);
      return true;
    },
  });
  const xml = files[part];
  if (!xml) throw new Error(`no ${part} in the file`);
  const parser = new saxes.SaxesParser({ xmlns: false });
  let text = '';
  let stack = 0;
  parser.on('text', (t) => {
    if (stack > 0 && text.length < maxChars) text += t;
  });
  parser.on('opentag', (tag) => {
    if (blocks.has(tag.name)) stack++;
    if (spaces.has(tag.name)) text += ' ';
  });
  parser.on('closetag', (tag) => {
    if (blocks.has(tag.name)) {
      stack--;
      text += '\n';
    }
  });
  parser.write(Buffer.from(xml).toString('utf8')).close();
  return text;
}

async function extract(bytes) {
  if (mimeType === 'application/pdf') return pdfText(bytes);
  if (mimeType === DOCX)
    return xmlText(bytes, 'word/document.xml', new Set(['w:p']), new Set(['w:tab', 'w:br']));
  if (mimeType === ODT)
    return xmlText(
      bytes,
      'content.xml',
      new Set(['text:p', 'text:h']),
      new Set(['text:s', 'text:tab', 'text:line-break']),
    );
  if (/^text\/(plain|markdown|csv)\b/.test(mimeType)) return bytes.toString('utf8');
  throw new Error(`no text extractor for ${mimeType}`);
}

try {
  // NFKC: ligatures (ﬁ, ﬂ) and compatibility forms become the letters they stand for.
  const text = (await extract(await readStdin())).replaceAll('\0', '').normalize('NFKC');
  const truncated = text.length > maxChars;
  process.stdout.write(JSON.stringify({ text: text.slice(0, maxChars), truncated }));
} catch (error) {
  process.stderr.write(String(error?.message ?? error).slice(0, 500));
  process.exitCode = 1;
}
