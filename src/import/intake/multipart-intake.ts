import busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BadRequestProblem,
  FieldProblem,
  PayloadTooLargeProblem,
  UnsupportedMediaTypeProblem,
} from '../../common/problems/problem';
import type { UploadedFile } from '../source-tree';
import { checkEntryName } from '../zip/entry-names';

export interface MultipartParts {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** SHA-256 (hex) of each file's bytes, in the order of `files`. */
  sha256: string[];
  /** Bad file names and unknown parts, reported with the other field problems. */
  problems: FieldProblem[];
}

export interface IntakeOptions {
  maxBytes: number;
  /** A fresh folder the uploads are written to; the caller removes it. */
  tempDir: string;
  knownFields: readonly string[];
  fileFields: readonly string[];
  maxFiles: number;
}

function tooLarge(maxBytes: number): PayloadTooLargeProblem {
  return new PayloadTooLargeProblem(
    'import_request_too_large',
    `An import request may be at most ${maxBytes} bytes.`,
    { limit: maxBytes },
  );
}

/** Counts the raw request bytes and fails the stream the moment the limit is passed. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return callback(tooLarge(this.maxBytes));
    callback(null, chunk);
  }
}

/**
 * Streams a multipart import request to disk: each file goes to its own temp file as it
 * arrives (never the whole request in memory); the raw body is cut at `maxBytes` (413).
 */
export async function receiveMultipart(
  req: IncomingMessage,
  options: IntakeOptions,
): Promise<MultipartParts> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    throw new UnsupportedMediaTypeProblem(
      'unsupported_media_type',
      'Send the import as multipart/form-data.',
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    discard(req, options.maxBytes);
    throw tooLarge(options.maxBytes);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fields: 20,
        fieldSize: 64 * 1024,
        files: options.maxFiles,
        parts: options.maxFiles + 20,
      },
      defParamCharset: 'utf8',
    });
  } catch {
    throw new BadRequestProblem(
      'invalid_multipart',
      'The multipart body could not be read (boundary missing).',
    );
  }

  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const hashes: ReturnType<typeof createHash>[] = [];
  const problems: FieldProblem[] = [];
  const writes: Promise<void>[] = [];
  let fileLimitHit = false;

  parser.on('field', (name, value) => {
    if (!options.knownFields.includes(name)) {
      problems.push({
        field: name,
        code: 'unknown_field',
        message: `"${name}" is not a field of an import.`,
      });
      return;
    }
    fields[name] = value;
  });
  parser.on('filesLimit', () => {
    fileLimitHit = true;
  });
  parser.on('file', (name, stream, info) => {
    if (!options.fileFields.includes(name)) {
      problems.push({
        field: name,
        code: 'unknown_field',
        message: `Files go in the "files" field, not "${name}".`,
      });
      stream.resume();
      return;
    }
    const index = files.length + problems.length;
    const original =
      info.filename && info.filename.trim() !== '' ? info.filename : `upload-${index + 1}`;
    const check = checkEntryName(original);
    if (check.kind !== 'ok') {
      const reason = check.kind === 'refused' ? check.reason : 'names no file';
      problems.push({
        field: `files[${original}]`,
        code: check.kind === 'refused' ? check.code : 'unsafe_entry_name',
        message: `The file name "${original}" ${reason}.`,
      });
      stream.resume();
      return;
    }
    const tempPath = join(options.tempDir, `${String(files.length).padStart(5, '0')}.upload`);
    const upload: UploadedFile = { name: check.path, tempPath, size: 0 };
    files.push(upload);
    const hash = createHash('sha256');
    hashes.push(hash);
    stream.on('data', (chunk: Buffer) => {
      upload.size += chunk.length;
      hash.update(chunk);
    });
    writes.push(pipeline(stream, createWriteStream(tempPath)));
  });

  const limiter = new ByteLimit(options.maxBytes);
  // Piped by hand, not with pipeline(): a failure must not destroy the request's socket, or
  // the 413 could never be sent.
  const parsed = new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(limiter);
      limiter.unpipe(parser);
      parser.destroy();
      reject(
        error instanceof PayloadTooLargeProblem
          ? error
          : new BadRequestProblem(
              'invalid_multipart',
              'The multipart body is malformed or was cut short.',
            ),
      );
    };
    limiter.on('error', fail);
    parser.on('error', fail);
    req.on('error', fail);
    req.on('aborted', () => fail(new Error('aborted')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    req.pipe(limiter).pipe(parser);
  });
  try {
    await parsed;
  } catch (error) {
    discard(req, options.maxBytes);
    await Promise.allSettled(writes);
    throw error;
  }
  const written = await Promise.allSettled(writes);
  if (written.some((w) => w.status === 'rejected')) {
    throw new BadRequestProblem(
      'invalid_multipart',
      'The multipart body is malformed or was cut short.',
    );
  }
  if (fileLimitHit)
    throw new PayloadTooLargeProblem(
      'import_too_many_entries',
      `One import may hold at most ${options.maxFiles} files.`,
    );
  return { fields, files, sha256: hashes.map((h) => h.digest('hex')), problems };
}

/**
 * After a refusal the rest of the body is read and dropped, never stored, so that the client,
 * still sending, gets to read the 413. Past twice the limit (plus 16 MiB) the connection is
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
