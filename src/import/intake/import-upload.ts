import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import type { Observable } from 'rxjs';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { makeTempDir } from '../../common/files/temp-folder';
import {
  multipartFingerprint,
  RECEIVED_BODY,
  ReceivedBody,
} from '../../common/idempotency/idempotency-key';
import {
  IMPORT_FIELDS,
  importFieldsProblem,
  parseBoolean,
  parseImportOptions,
} from '../import-options';
import type { ImportUpload } from '../run/run-types';
import { receiveMultipart } from './multipart-intake';

const FILE_FIELDS = ['files', 'files[]', 'file'] as const;

/**
 * Receives a multipart import request into a fresh temp folder and checks its fields: the
 * typed, validated request, or a 413/415/422 problem (the folder is then removed already).
 */
export async function receiveImport(
  req: IncomingMessage,
  config: AppConfig,
): Promise<ImportUpload> {
  const tempDir = await makeTempDir(config.dataDir, 'import-');
  try {
    const parts = await receiveMultipart(req, {
      maxBytes: config.importMaxBytes,
      tempDir,
      knownFields: [...IMPORT_FIELDS, 'async'],
      fileFields: FILE_FIELDS,
      maxFiles: config.importMaxEntries,
    });
    const problems = [...parts.problems];
    const options = parseImportOptions(parts.fields, problems);
    const async = parseBoolean(parts.fields, 'async', problems);
    if (parts.files.length === 0)
      problems.push({
        field: 'files',
        code: 'required',
        message: 'Send one or more files in the "files" field.',
      });
    if (!options || problems.length > 0) throw importFieldsProblem(problems);
    const receivedBytes = parts.files.reduce((sum, file) => sum + file.size, 0);
    const fingerprint = multipartFingerprint(
      parts.fields,
      parts.files.map((file, i) => ({ name: file.name, sha256: parts.sha256[i] })),
    );
    return { options, files: parts.files, tempDir, receivedBytes, async, fingerprint };
  } catch (error) {
    await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
}

const UPLOAD = Symbol('importUpload');

/**
 * Receives POST /api/import's body (after the guards: anonymous and non-admin callers never
 * upload) and hands the handler the typed request through `@ImportUploadParam()`.
 */
@Injectable()
export class ImportUploadInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context
      .switchToHttp()
      .getRequest<IncomingMessage & { [UPLOAD]?: ImportUpload; [RECEIVED_BODY]?: ReceivedBody }>();
    const upload = await receiveImport(req, this.config);
    req[UPLOAD] = upload;
    // For IdempotencyInterceptor: a replayed answer never reaches the handler that owns the
    // temp folder, so it removes the folder itself.
    req[RECEIVED_BODY] = {
      fingerprint: upload.fingerprint,
      discard: () => rm(upload.tempDir, { recursive: true, force: true }),
    };
    return next.handle();
  }
}

/** The request ImportUploadInterceptor received. */
export const ReceivedImport = createParamDecorator(
  (_: unknown, context: ExecutionContext): ImportUpload =>
    context.switchToHttp().getRequest<{ [UPLOAD]: ImportUpload }>()[UPLOAD],
);
