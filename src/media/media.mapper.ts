import { mediaUrl } from '../common/text/media-urls';
import type { MediaResponse } from './dto/media-response.dto';
import type { MediaEntity } from './entities/media.entity';

// The response shape (and its OpenAPI schema) is in dto/media-response.dto.ts.
export type { MediaResponse } from './dto/media-response.dto';

export function toMediaResponse(media: MediaEntity): MediaResponse {
  const { id, kind, filename, mimeType, size, sha256, uploader } = media;
  return {
    id,
    kind,
    filename,
    mimeType,
    size,
    sha256,
    url: mediaUrl(kind, id),
    ...(kind === 'image' ? { width: media.width ?? 0, height: media.height ?? 0 } : {}),
    createdAt: media.createdAt.toISOString(),
    uploadedBy: uploader
      ? { id: uploader.id, username: uploader.username, displayName: uploader.displayName }
      : null,
  };
}
