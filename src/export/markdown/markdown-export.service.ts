import { Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../../common/auth/auth-user';
import { MediaService } from '../../media/public-api';
import { PagesService } from '../../pages/public-api';
import { archiveFileName } from '../archive/archive-paths';
import { createZip } from '../archive/zip-writer';
import { slugFileStem } from '../http/download';
import { findMediaReferences, rewriteMediaReferences } from './media-references';
import { pageMarkdown } from './page-markdown';
import type { PageExportFormat } from '../dto/page-export-query.dto';

export type PageExport =
  | { kind: 'markdown'; filename: string; body: Buffer }
  | { kind: 'zip'; filename: string; stream: Readable; abort(): void };

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

interface PackedImage {
  id: string;
  name: string;
  stream: Readable;
  date: Date;
}

/**
 * Single-page Markdown export: `# Title` then the stored content, variables kept as `{{name}}`.
 * When the page shows stored images, a ZIP with the Markdown and every image under `images/`,
 * the references rewritten to those archive-relative paths. `format` forces one of the two
 * (`markdown`: references stay kb URLs; `zip`: a ZIP even without images).
 */
@Injectable()
export class MarkdownExportService {
  private readonly logger = new Logger('MarkdownExport');

  constructor(
    private readonly pages: PagesService,
    private readonly media: MediaService,
  ) {}

  async exportPage(slug: string, user: AuthUser, format?: PageExportFormat): Promise<PageExport> {
    const page = await this.pages.getVisible(slug, user);
    const stem = slugFileStem(page.slug);
    const images =
      format === 'markdown'
        ? []
        : await this.openImages(
            findMediaReferences(page.content)
              .filter((r) => r.kind === 'image')
              .map((r) => r.id),
            user,
          );
    if (images.length === 0 && format !== 'zip') {
      return {
        kind: 'markdown',
        filename: `${stem}.md`,
        body: Buffer.from(pageMarkdown(page.title, page.content), 'utf8'),
      };
    }
    const byId = new Map(images.map((image) => [image.id, image]));
    const content = rewriteMediaReferences(page.content, (ref) => {
      const image = ref.kind === 'image' ? byId.get(ref.id) : undefined;
      return image ? `images/${image.name}` : undefined;
    });
    const zip = createZip();
    zip.on('warning', (error) => this.logger.warn({ msg: 'zip warning', error: String(error) }));
    zip.append(Buffer.from(pageMarkdown(page.title, content), 'utf8'), {
      name: `${stem}.md`,
      date: page.updatedAt,
    });
    for (const image of images)
      zip.append(image.stream, { name: `images/${image.name}`, date: image.date });
    void zip.finalize().catch(() => undefined);
    const abort = () => {
      zip.abort();
      // Image files not yet read by the ZIP writer would otherwise stay open.
      for (const image of images) image.stream.destroy();
    };
    return { kind: 'zip', filename: `${stem}.zip`, stream: zip, abort };
  }

  /**
   * Opens each stored image `user` may see (MediaService.findVisibleMany) once; other ids stay
   * plain references.
   */
  private async openImages(ids: string[], user: AuthUser): Promise<PackedImage[]> {
    const images: PackedImage[] = [];
    const taken = new Set<string>();
    try {
      const found = await this.media.findVisibleMany(ids, user);
      for (const id of ids) {
        const meta = found.get(id);
        if (!meta || meta.kind !== 'image') continue;
        let stream: Readable;
        try {
          stream = (await this.media.openContent(id)).stream;
        } catch {
          continue;
        }
        images.push({
          id,
          name: uniqueName(imageFileName(meta.filename, meta.mimeType), taken),
          stream,
          date: new Date(meta.createdAt),
        });
      }
    } catch (error) {
      for (const image of images) image.stream.destroy();
      throw error;
    }
    return images;
  }
}

function imageFileName(filename: string, mimeType: string): string {
  const name = archiveFileName(filename, 'image');
  const ext = IMAGE_EXTENSIONS[mimeType];
  if (!ext) return name;
  const current = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  const matches = current === ext || (ext === 'jpg' && current === 'jpeg');
  return matches ? name : `${name}.${ext}`;
}

/** `photo.png`, then `photo-2.png`, ... (case-insensitively unique). */
function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
