import busboy from 'busboy';
import type { Request } from 'express';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  BadRequestProblem,
  fieldProblem,
  UnsupportedMediaTypeProblem,
} from '../../common/problems/problem';
import { TempFile, writeTempFile } from './temp-file';

export interface ReceivedUpload extends TempFile {
  /** The file name the client sent (unsanitised). */
  clientFilename: string;
}

/**
 * Reads a multipart body that carries one file in `field`, straight to a temp file. Rejects
 * with a problem on a non-multipart body, a missing or second file, a malformed body or an
 * aborted request; the temp file is gone by then. Errors from the writer (size limit) are
 * passed through for the caller to map.
 */
export function receiveSingleFile(
  req: Request,
  field: string,
  dataDir: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  return new Promise<ReceivedUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers send UTF-8 file names; busboy's default would read them as Latin-1.
        defParamCharset: 'utf8',
        // One byte over the limit is enough to know it is too large; the writer counts exactly.
        limits: { files: 1, fileSize: maxBytes + 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
      });
    } catch {
      reject(
        new UnsupportedMediaTypeProblem(
          'multipart_required',
          `Send the file as multipart/form-data in the field "${field}".`,
        ),
      );
      return;
    }
    let settled = false;
    let extraFile = false;
    let fileStream: Readable | null = null;
    let written: Promise<ReceivedUpload> | null = null;

    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // Keep reading (and discarding) what the client still sends, so it gets our answer.
      req.resume();
      fileStream?.destroy();
      const cleanup = written
        ? written.then((f) => rm(f.path, { force: true })).catch(() => undefined)
        : Promise.resolve();
      void cleanup.then(() => reject(error));
    };

    parser.on('file', (name, stream, info) => {
      if (name !== field || written) {
        if (written) extraFile = true;
        stream.resume();
        return;
      }
      fileStream = stream;
      written = writeTempFile(stream, dataDir, maxBytes).then((f) => ({
        ...f,
        clientFilename: info.filename ?? '',
      }));
      // A failed write (too large) answers at once instead of after the whole body arrives.
      written.catch((error: unknown) => fail(error));
    });
    parser.on('filesLimit', () => {
      extraFile = true;
    });
    parser.on('error', () =>
      fail(new BadRequestProblem('invalid_multipart', 'The multipart body is malformed.')),
    );
    parser.on('close', () => {
      if (settled) return;
      if (!written) {
        fail(fieldProblem(field, 'required', `Send the file in the multipart field "${field}".`));
        return;
      }
      written.then(
        (file) => {
          if (settled) return;
          if (extraFile) {
            fail(
              new BadRequestProblem(
                'too_many_files',
                `Send exactly one file in the field "${field}".`,
              ),
            );
            return;
          }
          settled = true;
          resolve(file);
        },
        (error: unknown) => fail(error),
      );
    });
    req.on('close', () => {
      if (!req.complete)
        fail(new BadRequestProblem('request_aborted', 'The request was aborted by the client.'));
    });
    req.pipe(parser);
  });
}
