import { Injectable } from '@nestjs/common';
import { etagMatches } from '../common/http/etag';
import type { MediaKind } from './entities/media.entity';
import {
  ContentConditions,
  ContentResult,
  decideRange,
  RangeNotSatisfiableProblem,
} from './http/content-response';
import type { MediaViewer } from './media-access';
import { MediaService } from './media.service';
import { contentDisposition } from './upload/filename';
import { IMAGE_MIME_TYPES } from './upload/file-type';

/** Content never changes under an id (a new upload gets a new id), so clients may cache it for good. */
const CACHE_CONTROL = 'private, max-age=31536000, immutable';

/**
 * Serves stored bytes so a browser can never run them: the stored (detected) type, nosniff,
 * a sandboxing CSP with no sources, and `inline` only for the four raster image types.
 */
@Injectable()
export class MediaContentService {
  constructor(private readonly media: MediaService) {}

  async serve(
    kind: MediaKind,
    id: string,
    conditions: ContentConditions,
    viewer: MediaViewer,
  ): Promise<ContentResult> {
    const item = await this.media.require(kind, id, viewer);
    const etag = `"${item.sha256}"`;
    const common: Record<string, string> = {
      ETag: etag,
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Accept-Ranges': 'bytes',
    };
    if (etagMatches(conditions.ifNoneMatch, etag)) return { status: 304, headers: common };

    const inline =
      kind === 'image' && (IMAGE_MIME_TYPES as readonly string[]).includes(item.mimeType);
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': item.mimeType,
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', item.filename),
    };
    // If-Range: the range only applies while the client's copy is still current (strong match).
    const rangeApplies = conditions.ifRange === undefined || conditions.ifRange.trim() === etag;
    const decision = rangeApplies
      ? decideRange(conditions.range, item.size)
      : { kind: 'full' as const };
    if (decision.kind === 'unsatisfiable') throw new RangeNotSatisfiableProblem(item.size);
    const head = conditions.method === 'HEAD';
    if (decision.kind === 'partial') {
      const { start, end } = decision.range;
      headers['Content-Range'] = `bytes ${start}-${end}/${item.size}`;
      headers['Content-Length'] = String(end - start + 1);
      return {
        status: 206,
        headers,
        stream: head ? undefined : (await this.media.openStored(item, decision.range)).stream,
      };
    }
    headers['Content-Length'] = String(item.size);
    return {
      status: 200,
      headers,
      stream: head ? undefined : (await this.media.openStored(item)).stream,
    };
  }
}
