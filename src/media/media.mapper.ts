import type { MediaEntity, MediaKind } from './entities/media.entity';

export interface UploaderResponse {
  id: string;
  username: string;
  displayName: string;
}

export interface MediaResponse {
  id: string;
  kind: MediaKind;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  url: string;
  width?: number;
  height?: number;
  createdAt: string;
  /** null when the uploader's account was deleted. */
  uploadedBy: UploaderResponse | null;
}

export function mediaUrl(kind: MediaKind, id: string): string {
  return `/api/${kind === 'image' ? 'images' : 'attachments'}/${id}/content`;
}

export function toMediaResponse(media: MediaEntity): MediaResponse {
  const uploader = media.uploader;
  return {
    id: media.id,
    kind: media.kind,
    filename: media.filename,
    mimeType: media.mimeType,
    size: media.size,
    sha256: media.sha256,
    url: mediaUrl(media.kind, media.id),
    ...(media.kind === 'image' ? { width: media.width ?? 0, height: media.height ?? 0 } : {}),
    createdAt: media.createdAt.toISOString(),
    uploadedBy: uploader
      ? { id: uploader.id, username: uploader.username, displayName: uploader.displayName }
      : null,
  };
}
