#!/usr/bin/env node
// `npm run pdf-service`: a small HTML-to-PDF service for development and tests that speaks the
// one Gotenberg route kb uses, `POST /forms/chromium/convert/html`, backed by Debian's headless
// Chromium through playwright-core. Production may point PDF_SERVICE_URL at a real Gotenberg.
//
// - multipart body with the document as the file `index.html`, and optionally `header.html` and
//   `footer.html` (drawn in the margins of every page; the classes pageNumber, totalPages,
//   title, date and url are filled in, as Gotenberg does); form fields paperWidth,
//   paperHeight, marginTop/Bottom/Left/Right (inches, or with a unit: 210mm, 2cm, 72pt, 96px),
//   printBackground, generateDocumentOutline, preferCssPageSize, landscape, scale;
// - one browser for the whole process, one fresh context per conversion with JavaScript off and
//   every network request refused except `data:` URIs (the HTML must be self-contained);
// - bounded concurrency: PDF_SERVICE_CONCURRENCY conversions at once, PDF_SERVICE_QUEUE more
//   waiting; beyond that 503 with Retry-After, as Gotenberg answers under load;
// - `GET /health` answers like Gotenberg's health route.
//
// Environment: PORT (3001; 0 picks a free port), HOST (127.0.0.1), CHROMIUM_PATH
// (/usr/bin/chromium), PDF_SERVICE_CONCURRENCY (2), PDF_SERVICE_QUEUE (8),
// PDF_SERVICE_CONVERT_TIMEOUT_MS (30000), PDF_SERVICE_MAX_BYTES (52428800),
// PDF_SERVICE_USERNAME / PDF_SERVICE_PASSWORD (optional basic auth, like Gotenberg's
// --api-enable-basic-auth). Logs are JSON lines on stdout; the first says where it listens.
'use strict';

const http = require('node:http');
const { randomUUID, timingSafeEqual } = require('node:crypto');
const Busboy = require('busboy');
const { chromium } = require('playwright-core');

const ROUTE = '/forms/chromium/convert/html';
// The document is served to the page from this origin by the route handler below; nothing is
// ever fetched from it. `.invalid` never resolves (RFC 2606).
const DOCUMENT_URL = 'http://document.invalid/index.html';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function intEnv(env, name, fallback, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return Number(raw);
}

function readOptions(env = process.env) {
  return {
    port: intEnv(env, 'PORT', 3001, 0),
    host: env.HOST || '127.0.0.1',
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    concurrency: intEnv(env, 'PDF_SERVICE_CONCURRENCY', 2, 1),
    queue: intEnv(env, 'PDF_SERVICE_QUEUE', 8, 0),
    convertTimeoutMs: intEnv(env, 'PDF_SERVICE_CONVERT_TIMEOUT_MS', 30_000, 100),
    maxBytes: intEnv(env, 'PDF_SERVICE_MAX_BYTES', 50 * 1024 * 1024, 1),
    username: env.PDF_SERVICE_USERNAME || undefined,
    password: env.PDF_SERVICE_PASSWORD || '',
  };
}

function log(fields) {
  process.stdout.write(
    JSON.stringify({ time: new Date().toISOString(), service: 'pdf-service', ...fields }) + '\n',
  );
}

/** An error answered as Gotenberg does: a status and a short plain-text message. */
class HttpError extends Error {
  constructor(status, message, headers = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

const UNITS_PER_INCH = { in: 1, mm: 25.4, cm: 2.54, pt: 72, px: 96 };

/** A length form field (inches by default, like Gotenberg) as a CSS length for Chromium. */
function lengthField(fields, name, fallbackInches) {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') return `${fallbackInches}in`;
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(in|mm|cm|pt|px)?\s*$/.exec(raw);
  if (!match)
    throw new HttpError(400, `Invalid form data: form field '${name}' is invalid (got '${raw}')`);
  const unit = match[2] || 'in';
  const inches = Number(match[1]) / UNITS_PER_INCH[unit];
  if (inches > 200)
    throw new HttpError(400, `Invalid form data: form field '${name}' is too large (got '${raw}')`);
  return `${Number(match[1])}${unit}`;
}

/** A boolean form field as Go's strconv.ParseBool reads it. */
function boolField(fields, name, fallback) {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim();
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new HttpError(400, `Invalid form data: form field '${name}' is invalid (got '${raw}')`);
}

function scaleField(fields) {
  const raw = fields.scale;
  if (raw === undefined || raw.trim() === '') return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0.1 || value > 2) {
    throw new HttpError(
      400,
      `Invalid form data: form field 'scale' must be between 0.1 and 2 (got '${raw}')`,
    );
  }
  return value;
}

/** Playwright's page.pdf options from Gotenberg's form fields (same defaults: Letter, 0.39in). */
function pdfOptions(fields) {
  return {
    width: lengthField(fields, 'paperWidth', 8.5),
    height: lengthField(fields, 'paperHeight', 11),
    margin: {
      top: lengthField(fields, 'marginTop', 0.39),
      bottom: lengthField(fields, 'marginBottom', 0.39),
      left: lengthField(fields, 'marginLeft', 0.39),
      right: lengthField(fields, 'marginRight', 0.39),
    },
    printBackground: boolField(fields, 'printBackground', false),
    preferCSSPageSize: boolField(fields, 'preferCssPageSize', false),
    outline: boolField(fields, 'generateDocumentOutline', false),
    tagged: boolField(fields, 'generateTaggedPdf', false),
    landscape: boolField(fields, 'landscape', false),
    scale: scaleField(fields),
  };
}

/** The files of the Chromium route kb reads; other files are ignored (Gotenberg takes assets). */
const DOCUMENT_FILES = ['index.html', 'header.html', 'footer.html'];

/** Chromium's header and footer templates from Gotenberg's files (an empty one when missing). */
function headerFooterOptions(files) {
  if (files['header.html'] === undefined && files['footer.html'] === undefined) return {};
  return {
    displayHeaderFooter: true,
    headerTemplate: files['header.html'] ?? '<span></span>',
    footerTemplate: files['footer.html'] ?? '<span></span>',
  };
}

/** Reads the multipart body: form fields and the document files (other files are ignored). */
function readForm(req, maxBytes) {
  return new Promise((resolve, reject) => {
    let busboy;
    try {
      busboy = Busboy({
        headers: req.headers,
        limits: { fileSize: maxBytes, files: 100, fields: 100, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(
        new HttpError(
          400,
          "Invalid form data: the request must be multipart/form-data with the file 'index.html'",
        ),
      );
      return;
    }
    const fields = {};
    const files = {};
    let failed = false;
    const fail = (error) => {
      if (failed) return;
      failed = true;
      req.unpipe(busboy);
      req.resume();
      reject(error);
    };
    busboy.on('field', (name, value) => {
      fields[name] = value;
    });
    busboy.on('file', (_name, stream, info) => {
      const chunks = [];
      let size = 0;
      const wanted = DOCUMENT_FILES.includes(info.filename);
      stream.on('data', (chunk) => {
        size += chunk.length;
        if (wanted) chunks.push(chunk);
      });
      stream.on('limit', () =>
        fail(
          new HttpError(413, `Request Entity Too Large: a file is larger than ${maxBytes} bytes`),
        ),
      );
      stream.on('end', () => {
        if (wanted && !failed) files[info.filename] = Buffer.concat(chunks, size).toString('utf8');
      });
    });
    busboy.on('error', () =>
      fail(new HttpError(400, 'Invalid form data: the multipart body is malformed')),
    );
    busboy.on('close', () => {
      if (failed) return;
      if (files['index.html'] === undefined) {
        reject(new HttpError(400, "Invalid form data: form file 'index.html' is required"));
        return;
      }
      resolve({ fields, html: files['index.html'], files });
    });
    req.on('aborted', () => fail(new HttpError(499, 'client closed the request')));
    req.pipe(busboy);
  });
}

/** Admission control: `concurrency` running, `queue` waiting, everything else refused at once. */
class Limiter {
  constructor(concurrency, queue) {
    this.concurrency = concurrency;
    this.queueSize = queue;
    this.running = 0;
    this.waiting = [];
  }
  /** Reserves a place or returns false when full; `acquire` then waits for a running slot. */
  admit() {
    if (this.running + this.waiting.length >= this.concurrency + this.queueSize) return false;
    return true;
  }
  acquire() {
    if (this.running < this.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
  get load() {
    return this.running + this.waiting.length;
  }
}

function createPdfService(options) {
  const limiter = new Limiter(options.concurrency, options.queue);
  // Requests admitted but still uploading count against the capacity too.
  let reserved = 0;
  let browserPromise;

  function browser() {
    if (!browserPromise) {
      browserPromise = chromium
        .launch({ executablePath: options.chromiumPath, args: CHROMIUM_ARGS })
        .then((b) => {
          b.on('disconnected', () => {
            browserPromise = undefined;
            log({
              level: 'warn',
              msg: 'chromium disconnected; it is relaunched on the next conversion',
            });
          });
          return b;
        })
        .catch((error) => {
          browserPromise = undefined;
          throw error;
        });
    }
    return browserPromise;
  }

  async function convert(html, pdf) {
    const context = await (
      await browser()
    ).newContext({ javaScriptEnabled: false, serviceWorkers: 'block', acceptDownloads: false });
    let blocked = 0;
    try {
      // The document comes from memory; data: URIs are not network requests and load as usual;
      // every other request (http, https, file, ws, ...) is refused.
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url === DOCUMENT_URL)
          return route.fulfill({
            status: 200,
            contentType: 'text/html; charset=utf-8',
            body: html,
          });
        if (url.startsWith('data:')) return route.continue();
        blocked += 1;
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.setDefaultTimeout(options.convertTimeoutMs);
      await page.goto(DOCUMENT_URL, { waitUntil: 'load', timeout: options.convertTimeoutMs });
      await page.emulateMedia({ media: 'print' });
      return { pdf: await page.pdf(pdf), blocked };
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  function withTimeout(promise, ms) {
    let timer;
    return Promise.race([
      promise,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new HttpError(503, 'Service Unavailable: the conversion timed out')),
          ms,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  function authorised(req) {
    if (!options.username) return true;
    const header = req.headers.authorization || '';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    if (!match) return false;
    const expected = Buffer.from(`${options.username}:${options.password}`);
    const given = Buffer.from(match[1], 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async function handleConvert(req, res, trace) {
    if (limiter.load + reserved >= options.concurrency + options.queue) {
      throw new HttpError(503, 'Service Unavailable: too many conversions in progress', {
        'Retry-After': '5',
      });
    }
    reserved += 1;
    let form;
    try {
      form = await readForm(req, options.maxBytes);
    } finally {
      reserved -= 1;
    }
    const pdf = { ...pdfOptions(form.fields), ...headerFooterOptions(form.files) };
    await limiter.acquire();
    const started = Date.now();
    try {
      const result = await withTimeout(convert(form.html, pdf), options.convertTimeoutMs);
      log({
        level: 'info',
        msg: 'converted',
        trace,
        bytesIn: Buffer.byteLength(form.html),
        bytesOut: result.pdf.length,
        blockedRequests: result.blocked,
        ms: Date.now() - started,
      });
      res.writeHead(200, {
        'Content-Type': 'application/pdf',
        'Content-Length': result.pdf.length,
        'Content-Disposition': `attachment; filename="${trace}.pdf"`,
        'Gotenberg-Trace': trace,
      });
      res.end(result.pdf);
    } finally {
      limiter.release();
    }
  }

  async function handle(req, res) {
    const trace = /^[\w.-]{1,100}$/.test(req.headers['gotenberg-trace'] || '')
      ? req.headers['gotenberg-trace']
      : randomUUID();
    const path = (req.url || '/').split('?')[0];
    try {
      if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
        const status = {
          status: 'up',
          details: { chromium: { status: 'up', timestamp: new Date().toISOString() } },
        };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(req.method === 'HEAD' ? undefined : JSON.stringify(status));
        return;
      }
      if (path !== ROUTE) throw new HttpError(404, 'Not Found');
      if (req.method !== 'POST') throw new HttpError(405, 'Method Not Allowed', { Allow: 'POST' });
      if (!authorised(req))
        throw new HttpError(401, 'Unauthorized', {
          'WWW-Authenticate': 'Basic realm="pdf-service"',
        });
      await handleConvert(req, res, trace);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (status >= 500)
        log({
          level: 'error',
          msg: 'conversion failed',
          trace,
          status,
          error: error instanceof Error ? error.message : String(error),
        });
      if (res.headersSent || res.destroyed || status === 499) {
        res.destroy();
        return;
      }
      const message = status === 500 ? 'Internal Server Error' : error.message;
      res.writeHead(status, {
        'Content-Type': 'text/plain; charset=UTF-8',
        'Gotenberg-Trace': trace,
        ...(error.headers || {}),
      });
      res.end(message);
    }
  }

  const server = http.createServer((req, res) => void handle(req, res));
  return {
    server,
    browser,
    async close() {
      await new Promise((resolve) => server.close(() => resolve()));
      const b = browserPromise && (await browserPromise.catch(() => undefined));
      if (b) await b.close().catch(() => undefined);
    },
  };
}

async function main() {
  let options;
  try {
    options = readOptions();
  } catch (error) {
    console.error(`pdf-service: ${error.message}`);
    process.exit(2);
  }
  const service = createPdfService(options);
  try {
    // Launch at start so a missing Chromium is reported at once, not on the first request.
    await service.browser();
  } catch (error) {
    console.error(
      `pdf-service: cannot start Chromium at ${options.chromiumPath} (set CHROMIUM_PATH, or apt-get install chromium): ${error.message.split('\n')[0]}`,
    );
    process.exit(1);
  }
  service.server.listen(options.port, options.host, () => {
    const address = service.server.address();
    log({
      level: 'info',
      msg: 'listening',
      host: options.host,
      port: address.port,
      url: `http://${options.host}:${address.port}`,
    });
  });
  let closing = false;
  const shutdown = (signal) => {
    if (closing) return;
    closing = true;
    log({ level: 'info', msg: 'shutting down', signal });
    service.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

module.exports = { createPdfService, readOptions, pdfOptions };

if (require.main === module) void main();
