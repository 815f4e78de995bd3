import { Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { InjectConfig } from '../../common/config/app-config';
import type { FilesConfig } from '../../common/config/database-config';
import type { MediaConfig } from '../../common/config/media-config';
import { ReceivedFile, readMultipart } from '../../common/http/multipart';
import type { UploadReceiver } from '../../common/http/upload';
import {
  BadRequestProblem,
  fieldProblem,
  PayloadTooLargeProblem,
  UnsupportedMediaTypeProblem,
} from '../../common/problems/problem';
import type { MediaKind } from '../entities/media.entity';
import { assertSafeFilename } from './filename';

/** Multipart framing around the file: a body this much over the limit is refused unread. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** A received POST /api/images or /api/attachments: one file, on disk, its name checked. */
export interface MediaUpload {
  kind: MediaKind;
  file: ReceivedFile;
}

/** The configured size limit of one image or attachment. */
export function mediaLimit(config: MediaConfig, kind: MediaKind): number {
  return kind === 'image' ? config.imageMaxBytes : config.attachmentMaxBytes;
}

/** 413 `image_too_large` / `attachment_too_large`. */
export function mediaTooLarge(config: MediaConfig, kind: MediaKind): PayloadTooLargeProblem {
  const limit = mediaLimit(config, kind);
  return new PayloadTooLargeProblem(
    `${kind}_too_large`,
    `${kind === 'image' ? 'Images' : 'Attachments'} may be at most ${limit} bytes.`,
    { limit },
  );
}

/**
 * The body of a media upload: exactly one file in the multipart field `file` (other parts are
 * ignored), at most the kind's limit (413), with a file name that is safe to show (422 `file`).
 */
@Injectable()
export class MediaUploadReceiver implements UploadReceiver<MediaUpload, MediaKind> {
  constructor(
    @InjectConfig('media') private readonly config: MediaConfig,
    @InjectConfig('files') private readonly files: FilesConfig,
  ) {}

  async receive(req: IncomingMessage, kind: MediaKind): Promise<MediaUpload> {
    const limit = mediaLimit(this.config, kind);
    const body = await readMultipart(req, {
      dataDir: this.files.dataDir,
      maxBytes: limit + MULTIPART_OVERHEAD_BYTES,
      maxFileBytes: limit,
      maxFiles: 1,
      fields: [],
      fileFields: ['file'],
      unknownParts: 'ignore',
      notMultipart: () =>
        new UnsupportedMediaTypeProblem(
          'multipart_required',
          'Send the file as multipart/form-data in the field "file".',
        ),
      tooLarge: () => mediaTooLarge(this.config, kind),
      tooManyFiles: () =>
        new BadRequestProblem('too_many_files', 'Send exactly one file in the field "file".'),
    });
    const [file] = body.files;
    if (!file)
      throw fieldProblem('file', 'required', 'Send the file in the multipart field "file".');
    const upload = { kind, file };
    try {
      assertSafeFilename(file.clientName);
    } catch (error) {
      await this.discard(upload);
      throw error;
    }
    return upload;
  }

  discard(upload: MediaUpload): Promise<void> {
    return rm(upload.file.path, { force: true });
  }
}
