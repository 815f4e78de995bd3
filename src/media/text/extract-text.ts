import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** The script that reads a document (pdf.js, fflate + saxes): a child process of its own. */
const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'extract-text.mjs');

/** Heap of the child process, at most: a hostile file fails there, not in the server. */
const CHILD_HEAP_MB = 256;

/**
 * What extraction needs and is missing (the script, pdf.js), said at start; null when all is
 * there.
 */
export function missingExtractor(): string | null {
  if (!existsSync(SCRIPT)) return `${SCRIPT} is missing`;
  try {
    require.resolve('pdfjs-dist/package.json');
  } catch {
    return 'the package pdfjs-dist is not installed';
  }
  return null;
}

/** Attachment types whose text is extracted for search. */
export function extractableType(mimeType: string): boolean {
  return (
    mimeType === 'application/pdf' ||
    mimeType === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' ||
    mimeType === 'application/vnd.oasis.opendocument.text' ||
    /^text\/(plain|markdown|csv)\b/.test(mimeType)
  );
}

export interface ExtractLimits {
  timeoutMs: number;
  maxChars: number;
}

export interface ExtractedText {
  text: string;
  truncated: boolean;
}

/** Why an extraction gave no text (recorded as the attachment's `detail`). */
export class ExtractFailed extends Error {}

/**
 * The text of a document of `mimeType` read from `input`, extracted in a child Node process
 * (scripts/extract-text.mjs): never on the server's event loop, killed after
 * `limits.timeoutMs`, with a capped heap; nothing in the file is executed (pdf.js runs with
 * eval, fonts and scripting off; office files are parsed as XML).
 */
export function extractText(
  input: Readable,
  mimeType: string,
  limits: ExtractLimits,
): Promise<ExtractedText> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${CHILD_HEAP_MB}`, SCRIPT, mimeType, String(limits.maxChars)],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
    );
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    // JSON of `maxChars` characters, each escaped at worst to \uXXXX.
    const maxOutput = limits.maxChars * 6 + 1024;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limits.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > maxOutput) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    // The child may exit before reading everything (an unsupported file): not an error here.
    child.stdin.on('error', () => undefined);
    input.on('error', (error) => {
      child.kill('SIGKILL');
      reject(error);
    });
    input.pipe(child.stdin);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      input.destroy();
      if (timedOut) {
        reject(new ExtractFailed(`timed out after ${limits.timeoutMs} ms`));
        return;
      }
      if (code !== 0) {
        reject(new ExtractFailed(stderr.trim() || `the extractor exited with code ${code}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as ExtractedText);
      } catch {
        reject(new ExtractFailed('the extractor answered no text'));
      }
    });
  });
}
