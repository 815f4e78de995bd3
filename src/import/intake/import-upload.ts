import { Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { InjectConfig } from '../../common/config/app-config';
import type { FilesConfig } from '../../common/config/database-config';
import type { ImportConfig } from '../../common/config/import-config';
import { makeTempDir } from '../../common/files/temp-folder';
import { ReceivedFile, readMultipart } from '../../common/http/multipart';
import type { UploadReceiver } from '../../common/http/upload';
import { multipartFingerprint } from '../../common/idempotency/idempotency-key';
import {
  FieldProblem,
  FieldProblems,
  PayloadTooLargeProblem,
  Problem,
  UnsupportedMediaTypeProblem,
} from '../../common/problems/problem';
import { createValidationPipe } from '../../common/problems/validation';
import {
  IMPORT_FIELDS,
  ImportFieldsDto,
  PREFIX_REQUIRED,
  toImportOptions,
} from '../dto/import-fields.dto';
import type { ImportUpload } from '../run/run-types';
import type { UploadedFile } from '../source-tree';
import { checkEntryName } from '../zip/entry-names';

const FILE_FIELDS = ['files', 'files[]', 'file'] as const;

/**
 * POST /api/import's body: a multipart request received into a fresh temp folder, its fields
 * and file names checked. The typed, validated request, or a 413/415/422 problem (the folder is
 * then removed already).
 */
@Injectable()
export class ImportUploadReceiver implements UploadReceiver<ImportUpload> {
  constructor(
    @InjectConfig('import') private readonly importConfig: ImportConfig,
    @InjectConfig('files') private readonly files: FilesConfig,
  ) {}

  async receive(req: IncomingMessage): Promise<ImportUpload> {
    const tempDir = await makeTempDir(this.files.dataDir, 'import-');
    try {
      const body = await readMultipart(req, {
        dataDir: this.files.dataDir,
        folder: tempDir,
        maxBytes: this.importConfig.maxBytes,
        maxFiles: this.importConfig.maxEntries,
        fields: IMPORT_FIELDS,
        fileFields: FILE_FIELDS,
        unknownParts: 'report',
        notMultipart: () =>
          new UnsupportedMediaTypeProblem(
            'unsupported_media_type',
            'Send the import as multipart/form-data.',
          ),
        tooLarge: () =>
          new PayloadTooLargeProblem(
            'import_request_too_large',
            `An import request may be at most ${this.importConfig.maxBytes} bytes.`,
            { limit: this.importConfig.maxBytes },
          ),
        tooManyFiles: () =>
          new PayloadTooLargeProblem(
            'import_too_many_entries',
            `One import may hold at most ${this.importConfig.maxEntries} files.`,
          ),
      });
      const problems = [...body.problems];
      const files = namedFiles(body.files, problems);
      const fields = await checkFields(body.fields, problems);
      if (files.length === 0)
        problems.push({
          field: 'files',
          code: 'required',
          message: 'Send one or more files in the "files" field.',
        });
      if (!fields || problems.length > 0) throw importFieldsProblem(problems);
      const fingerprint = multipartFingerprint(
        body.fields,
        body.files.map((file, i) => ({ name: files[i].name, sha256: file.sha256 })),
      );
      const receivedBytes = files.reduce((sum, file) => sum + file.size, 0);
      const options = toImportOptions(fields);
      return { options, files, tempDir, receivedBytes, async: fields.async ?? false, fingerprint };
    } catch (error) {
      await rm(tempDir, { recursive: true, force: true });
      throw error;
    }
  }

  discard(upload: ImportUpload): Promise<void> {
    return rm(upload.tempDir, { recursive: true, force: true });
  }

  fingerprint(upload: ImportUpload): string {
    return upload.fingerprint;
  }
}

/** The same pipe as every body's: form fields are text, like a query string (all problems 422). */
const validation = createValidationPipe();

/** The checked fields, or undefined with their problems added to `problems`. */
async function checkFields(
  fields: Record<string, string>,
  problems: FieldProblem[],
): Promise<ImportFieldsDto | undefined> {
  try {
    return (await validation.transform(fields, {
      type: 'query',
      metatype: ImportFieldsDto,
    })) as ImportFieldsDto;
  } catch (error) {
    if (!(error instanceof FieldProblems)) throw error;
    problems.push(...error.errors);
    return undefined;
  }
}

/**
 * 422 with every field problem; when the only fault is mode=mirror without a prefix, the code is
 * `prefix_required`, so a client can tell it from other field errors.
 */
function importFieldsProblem(problems: FieldProblem[]): Problem {
  if (problems.length === 1 && problems[0].code === PREFIX_REQUIRED)
    return new Problem(422, PREFIX_REQUIRED, problems[0].message, { errors: problems });
  return new FieldProblems(problems);
}

/** The files under their checked names (checkEntryName); a refused name is a field problem. */
function namedFiles(received: ReceivedFile[], problems: FieldProblem[]): UploadedFile[] {
  const files: UploadedFile[] = [];
  received.forEach((file, index) => {
    const original = file.clientName.trim() !== '' ? file.clientName : `upload-${index + 1}`;
    const check = checkEntryName(original);
    if (check.kind === 'ok') {
      files.push({ name: check.path, tempPath: file.path, size: file.size });
      return;
    }
    problems.push({
      field: `files[${original}]`,
      code: check.kind === 'refused' ? check.code : 'unsafe_entry_name',
      message: `The file name "${original}" ${check.kind === 'refused' ? check.reason : 'names no file'}.`,
    });
  });
  return files;
}
