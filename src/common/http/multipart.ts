import busboy from 'busboy';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { TempFile, TooLargeError, writeTempFile } from '../files/temp-file';
import { BadRequestProblem, FieldProblem, Problem } from '../problems/problem';

/** One file of a multipart body, on disk, hashed and counted. */
export interface ReceivedFile extends TempFile {
  /** The multipart field it came in. */
  field: string;
  /** The file name the client sent, unsanitised ('' when none). */
  clientName: string;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** Unknown parts, as `unknown_field` problems (with `unknownParts: 'report'`). */
  problems: FieldProblem[];
}

export interface MultipartOptions {
  dataDir: string;
  /** The folder the files go to (default `<dataDir>/tmp`); the caller removes what it gets. */
  folder?: string;
  /** The whole body, framing included: past it `tooLarge` (a larger declared length: unread). */
  maxBytes: number;
  /** One file (default: `maxBytes`). */
  maxFileBytes?: number;
  maxFiles: number;
  /** The text fields read. */
  fields: readonly string[];
  /** The fields files may come in. */
  fileFields: readonly string[];
  /** Other parts: reported as `unknown_field` problems, or dropped. */
  unknownParts: 'report' | 'ignore';
  /** 415 for a body that is not multipart/form-data. */
  notMultipart: () => Problem;
  /** 413 for a body or a file over its limit. */
  tooLarge: () => Problem;
  /** For more than `maxFiles` files. */
  tooManyFiles: () => Problem;
}

const MALFORMED = 'The multipart body is malformed or was cut short.';

/**
 * The one multipart reader: streams each file of a multipart/form-data body to its own temp
 * file as it arrives (hashed and counted, never the whole body in memory), reads the named text
 * fields, and answers a problem at once when a limit is passed: 413 `tooLarge` for the body or a
 * file, 400 `invalid_multipart` for a malformed body, `request_aborted` when the client goes
 * away. On a refusal no file is left on disk and the rest of the body is read and dropped, so the
 * client still sending gets to read the answer.
 */
export async function readMultipart(
  req: IncomingMessage,
  options: MultipartOptions,
): Promise<MultipartBody> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
    throw options.notMultipart();
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    discard(req, options.maxBytes);
    throw options.tooLarge();
  }
  return new MultipartReading(req, options).read();
}

/** One body being read: the parser's events, the files being written, the first failure. */
class MultipartReading {
  private readonly body: MultipartBody = { fields: {}, files: [], problems: [] };
  private readonly writes: Promise<ReceivedFile>[] = [];
  private tooManyFiles = false;
  private failure: ((error: unknown) => void) | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly options: MultipartOptions,
  ) {}

  async read(): Promise<MultipartBody> {
    const parser = this.parser();
    try {
      await this.parse(parser);
      this.body.files = await Promise.all(this.writes);
    } catch (error) {
      discard(this.req, this.options.maxBytes);
      await this.removeWritten();
      throw error instanceof Problem
        ? error
        : new BadRequestProblem('invalid_multipart', MALFORMED);
    }
    if (this.tooManyFiles) {
      await this.removeWritten();
      throw this.options.tooManyFiles();
    }
    return this.body;
  }

  private parser(): busboy.Busboy {
    const { maxFiles } = this.options;
    try {
      const parser = busboy({
        headers: this.req.headers,
        // Browsers send UTF-8 file names; busboy's default would read them as Latin-1.
        defParamCharset: 'utf8',
        limits: { fields: 20, fieldSize: 64 * 1024, files: maxFiles, parts: maxFiles + 20 },
      });
      parser.on('field', (name, value) => this.onField(name, value));
      parser.on('file', (name, stream, info) => this.onFile(name, stream, info.filename));
      parser.on('filesLimit', () => (this.tooManyFiles = true));
      return parser;
    } catch {
      throw new BadRequestProblem('invalid_multipart', 'The multipart body has no boundary.');
    }
  }

  /** Pipes the request through a byte counter into the parser; settles when it is read. */
  private parse(parser: busboy.Busboy): Promise<void> {
    const { req, options } = this;
    const limiter = new ByteLimit(options.maxBytes, options.tooLarge);
    // Piped by hand, not with pipeline(): a failure must not destroy the request's socket, or
    // the answer could never be sent.
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      this.failure = (error: unknown): void => {
        if (settled) return;
        settled = true;
        req.unpipe(limiter);
        limiter.unpipe(parser);
        parser.destroy();
        reject(error);
      };
      const fail = this.failure;
      limiter.on('error', fail);
      parser.on('error', () => fail(new BadRequestProblem('invalid_multipart', MALFORMED)));
      req.on('error', fail);
      req.on('close', () => {
        if (!req.complete)
          fail(new BadRequestProblem('request_aborted', 'The request was aborted by the client.'));
      });
      parser.on('close', () => {
        if (settled) return;
        settled = true;
        resolve();
      });
      req.pipe(limiter).pipe(parser);
    });
  }

  private onField(name: string, value: string): void {
    if (this.options.fields.includes(name)) this.body.fields[name] = value;
    else this.unknownPart(name, `"${name}" is not a field of this request.`);
  }

  private onFile(name: string, stream: Readable, filename: string | undefined): void {
    const { options } = this;
    if (!options.fileFields.includes(name)) {
      this.unknownPart(name, `Files go in the "${options.fileFields[0]}" field, not "${name}".`);
      stream.resume();
      return;
    }
    const maxFileBytes = options.maxFileBytes ?? options.maxBytes;
    const write = writeTempFile(stream, options.dataDir, maxFileBytes, options.folder).then(
      (file) => ({ ...file, field: name, clientName: filename ?? '' }),
      (error: unknown) => {
        throw error instanceof TooLargeError ? options.tooLarge() : error;
      },
    );
    // A file over its limit answers at once, not after the whole body arrived.
    write.catch((error: unknown) => this.failure?.(error));
    this.writes.push(write);
  }

  private unknownPart(name: string, message: string): void {
    if (this.options.unknownParts === 'report')
      this.body.problems.push({ field: name, code: 'unknown_field', message });
  }

  private async removeWritten(): Promise<void> {
    const written = await Promise.allSettled(this.writes);
    await Promise.all(
      written.map((w) => (w.status === 'fulfilled' ? rm(w.value.path, { force: true }) : null)),
    );
  }
}

/** Counts the raw request bytes and fails the stream the moment the limit is passed. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Problem,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return callback(this.tooLarge());
    callback(null, chunk);
  }
}

/**
 * After a refusal the rest of the body is read and dropped, never stored, so that the client,
 * still sending, gets to read the answer. Past twice the limit (plus 16 MiB) the connection is
 * closed instead.
 */
function discard(req: IncomingMessage, maxBytes: number): void {
  const cap = 2 * maxBytes + 16 * 1024 * 1024;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > cap) req.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}
