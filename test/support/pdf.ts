import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Busboy from 'busboy';
import { createTestApp, TestApp } from './test-app';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** True when the real Chromium-backed PDF service can run here (CI installs Chromium). */
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM_PATH);

/**
 * `it` when Chromium is installed, otherwise `it.skip` with the reason in the test name, so a
 * skipped real-PDF test is visible in the output instead of silently passing.
 */
export const itWithChromium = (name: string, fn: () => Promise<void>, timeout?: number): void => {
  if (CHROMIUM_AVAILABLE) it(name, fn, timeout);
  else
    it.skip(
      `${name} [SKIPPED: ${CHROMIUM_PATH} is missing; apt-get install chromium or set CHROMIUM_PATH]`,
      fn,
    );
};

export interface RunningPdfService {
  url: string;
  /** Everything the service printed (JSON log lines). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `scripts/pdf-service.js` on a free port and resolves once it listens. */
export async function startPdfService(
  env: Record<string, string> = {},
): Promise<RunningPdfService> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, '..', '..', 'scripts', 'pdf-service.js')],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        PDF_SERVICE_USERNAME: '',
        PDF_SERVICE_PASSWORD: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`pdf-service did not start within 30 s:\n${output}`)),
      30_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"msg":"listening".*"url":"([^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pdf-service exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface ReceivedConversion {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  fields: Record<string, string>;
  files: { field: string; filename: string; mimeType: string; content: string }[];
}

export interface FakePdfService {
  url: string;
  /** Conversions received so far, with their parsed multipart bodies. */
  received: ReceivedConversion[];
  close(): Promise<void>;
}

/** The smallest valid-looking PDF answer for fakes. */
export const FAKE_PDF = Buffer.from('%PDF-1.4\n% fake\n%%EOF\n', 'latin1');

/**
 * A tiny stand-in for the HTML-to-PDF service: parses the multipart body, records it and lets
 * `respond` answer (a PDF, an error, Retry-After, or nothing at all to simulate a hang).
 */
export async function fakePdfService(
  respond: (req: ReceivedConversion, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/pdf' }).end(FAKE_PDF);
  },
): Promise<FakePdfService> {
  const received: ReceivedConversion[] = [];
  const server: Server = createServer((req, res) => {
    const conversion: ReceivedConversion = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      fields: {},
      files: [],
    };
    const done = () => {
      received.push(conversion);
      respond(conversion, res);
    };
    if (!/^multipart\/form-data/.test(req.headers['content-type'] ?? '')) {
      req.resume();
      req.on('end', done);
      return;
    }
    const busboy = Busboy({ headers: req.headers });
    busboy.on('field', (name, value) => (conversion.fields[name] = value));
    busboy.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        conversion.files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          content: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    busboy.on('close', done);
    req.pipe(busboy);
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A URL nothing listens on (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface PdfContent {
  /** The text, page after page. */
  text: string;
  pages: number;
  /** Embedded raster images (width and height in pixels), all pages. */
  images: { width: number; height: number }[];
  /** The link annotations (their URLs), page after page. */
  links: string[];
}

/**
 * Reads a PDF with pdf-parse in a child Node process: pdf.js loads its worker with a dynamic
 * import, which Jest's module sandbox does not allow.
 */
export async function readPdf(pdf: Buffer): Promise<PdfContent> {
  const script = `
    const { PDFParse } = require('pdf-parse');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', async () => {
      const data = new Uint8Array(Buffer.concat(chunks));
      const parser = new PDFParse({ data });
      try {
        const text = await parser.getText();
        const images = await parser.getImage({ imageBuffer: false, imageDataUrl: false, imageThreshold: 0 });
        const info = await parser.getInfo({ parsePageInfo: true });
        process.stdout.write(JSON.stringify({
          text: text.text,
          pages: text.total,
          images: images.pages.flatMap((p) => p.images.map((i) => ({ width: i.width, height: i.height }))),
          links: info.pages.flatMap((p) => p.links.map((l) => l.url)),
        }));
      } catch (e) { process.stderr.write(String(e)); process.exitCode = 1; }
      finally { await parser.destroy(); }
    });`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], {
      cwd: join(__dirname, '..', '..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`pdf-parse failed: ${stderr}`)),
    );
    child.stdin.end(pdf);
  });
  return JSON.parse(out) as PdfContent;
}

/** The text of a PDF, page after page. */
export async function pdfText(pdf: Buffer): Promise<string> {
  return (await readPdf(pdf)).text;
}

/**
 * Whether this run prints real PDFs: Chromium is installed and the run is SQLite's (one
 * Chromium-backed service is enough; the PDF path does not depend on the database).
 */
export const PRINTS_PDFS = CHROMIUM_AVAILABLE && (process.env.DB_TYPE ?? 'sqlite') === 'sqlite';

/** `it` in a run that prints PDFs, otherwise a skip that says why. */
export const itPrintingPdfs = (name: string, fn: () => Promise<void>, timeout?: number): void => {
  if (PRINTS_PDFS) it(name, fn, timeout);
  else it.skip(`${name} [real PDFs are printed in the SQLite run, with Chromium]`, fn);
};

/** An app of its own, with the real PDF service beside it in a run that prints PDFs. */
export async function createPdfTestApp(): Promise<{ t: TestApp; close(): Promise<void> }> {
  const service = PRINTS_PDFS ? await startPdfService() : undefined;
  const t = await createTestApp(
    service ? { PDF_SERVICE_URL: service.url, PDF_SERVICE_TIMEOUT_MS: '30000' } : {},
  );
  return {
    t,
    close: async () => {
      await t.close();
      await service?.stop();
    },
  };
}
