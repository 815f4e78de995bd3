import { Injectable, Logger } from '@nestjs/common';
import type { PageRecord } from '../../pages/public-api';
import { PageHtmlService, RenderPool, SiteVariablesService } from '../../pages/public-api';
import type { MediaResponse, MediaViewer } from '../../media/public-api';
import { MediaService } from '../../media/public-api';
import { absoluteLinks } from './absolute-links';
import { DataUriCache } from './data-uri-cache';
import { inlineImages, storedImageIds } from './inline-images';
import { markPageBreaks } from './page-breaks';
import { printDocument } from './print-template';

/** Images read at once while building one document. */
const IMAGE_READ_CONCURRENCY = 4;
/** Characters of base64 kept in memory for images printed again soon (about 24 MiB of images). */
const DATA_URI_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * Builds THE print document — the same HTML for the print preview, the browser's print and the
 * PDF: the normal markdown-it rendering with variables resolved (saved values, then the
 * request's overrides), page-break markers, every stored image inlined as a `data:` URI, links
 * made absolute (pages to their console URL), the title, one embedded print stylesheet; no
 * script, and nothing outside it is loaded.
 */
@Injectable()
export class PrintDocumentService {
  private readonly logger = new Logger('PrintDocument');
  private readonly cache = new DataUriCache(DATA_URI_CACHE_CHARS);

  constructor(
    private readonly siteVariables: SiteVariablesService,
    private readonly renders: RenderPool,
    private readonly media: MediaService,
    private readonly pageHtml: PageHtmlService,
  ) {}

  /**
   * `baseUrl`: where readers reach kb (KB_PUBLIC_URL or the request's origin), for the links.
   * `overrides` must already be validated (validateOverrides).
   */
  async build(
    page: PageRecord,
    viewer: MediaViewer,
    baseUrl: string,
    overrides: Record<string, string> = {},
  ): Promise<string> {
    const variables = { ...(await this.siteVariables.resolveVariables(page)), ...overrides };
    const breaks = markPageBreaks(page.content);
    const rendered = await this.renders.render(breaks.markdown, variables, page.slug);
    // Includes are filled for the reader from the included pages' stored HTML (saved values).
    const body = breaks.restore(await this.pageHtml.forReader(rendered, viewer, page.slug));
    const images = await this.dataUris(storedImageIds(body), viewer);
    // Paper cannot expand a section: collapsible ones print open.
    const printed = absoluteLinks(body.replace(/<details>/g, '<details open>'), baseUrl, page.slug);
    return printDocument(page.title, page.language, inlineImages(printed, images));
  }

  /**
   * `data:` URIs of the stored images by id that `viewer` may see (MediaService.findVisible);
   * a missing, hidden or non-image item is left out (alt text).
   */
  private async dataUris(ids: string[], viewer: MediaViewer): Promise<Map<string, string>> {
    const uris = new Map<string, string>();
    // The metadata is read every time, in one query (an image may have been deleted or hidden).
    const found = await this.media.findVisibleMany(ids, viewer);
    const images = [...found.values()].filter(
      (meta) => meta.kind === 'image' && /^image\/[a-z0-9.+-]+$/.test(meta.mimeType),
    );
    for (let i = 0; i < images.length; i += IMAGE_READ_CONCURRENCY) {
      await Promise.all(
        images.slice(i, i + IMAGE_READ_CONCURRENCY).map(async (meta) => {
          const uri = await this.dataUri(meta);
          if (uri) uris.set(meta.id, uri);
        }),
      );
    }
    return uris;
  }

  /** The bytes are read only once per content hash. */
  private async dataUri(meta: MediaResponse): Promise<string | undefined> {
    const { id } = meta;
    const cached = this.cache.get(meta.sha256);
    if (cached) return cached;
    try {
      const content = await this.media.openContent(id);
      const chunks: Buffer[] = [];
      for await (const chunk of content.stream) chunks.push(chunk as Buffer);
      const uri = `data:${meta.mimeType};base64,${Buffer.concat(chunks).toString('base64')}`;
      this.cache.set(meta.sha256, uri);
      return uri;
    } catch (error) {
      this.logger.warn({
        msg: 'image could not be read for the print document',
        mediaId: id,
        error: String(error),
      });
      return undefined;
    }
  }
}
