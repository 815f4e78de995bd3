import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { FilesConfig } from '../../common/config/database-config';
import type { Archiver } from 'archiver';
import type { AuthUser } from '../../common/auth/auth-user';
import { FieldProblems } from '../../common/problems/problem';
import { CommentsArchive } from '../../comments/public-api';
import { MediaService } from '../../media/public-api';
import {
  normaliseSlug,
  PageBrowseService,
  PageRedirectsService,
  PageTemplatesService,
  SiteVariablesService,
} from '../../pages/public-api';
import type { ArchiveRequestDto } from '../dto/archive-request.dto';
import { createZip } from './zip-writer';

import { ArchiveRun, ArchiveSources } from './archive-run';

/** Pages read from the database at a time. */
const PAGE_BATCH = 100;
export interface ArchiveRequest {
  /** Normalised, de-duplicated slugs of live pages, or undefined for all. */
  slugs?: string[];
}

export interface ArchiveDownload {
  filename: string;
  stream: Archiver;
  /** Stops producing entries (client went away). */
  abort(): void;
}

/**
 * The administrator's archive: a ZIP streamed while it is built — pages as `<slug>.md` with
 * `# Title`, media once each under `media/<id>/`, and `manifest.json` (last) with all metadata
 * and SHA-256 checksums. Pages are read in batches and entries wait for the ZIP writer, so memory
 * stays flat; the manifest grows in a temporary file, not in memory.
 */
@Injectable()
export class ArchiveExportService {
  private readonly logger = new Logger('ArchiveExport');

  constructor(
    private readonly browse: PageBrowseService,
    private readonly redirects: PageRedirectsService,
    private readonly siteVariables: SiteVariablesService,
    private readonly media: MediaService,
    private readonly comments: CommentsArchive,
    private readonly templates: PageTemplatesService,
    @InjectConfig('files') private readonly filesConfig: FilesConfig,
  ) {}

  /** The pages `request` names, normalised: 422 per slug that is not a live page the caller sees. */
  async select(request: ArchiveRequestDto, user: AuthUser): Promise<ArchiveRequest> {
    if (request.slugs === undefined) return {};
    const wanted = new Map<string, number>();
    request.slugs.forEach((slug, index) => {
      if (!wanted.has(normaliseSlug(slug))) wanted.set(normaliseSlug(slug), index);
    });
    const found = new Set<string>();
    const list = [...wanted.keys()];
    for (let i = 0; i < list.length; i += 500) {
      for (const slug of await this.browse.visibleLiveSlugs(user, list.slice(i, i + 500)))
        found.add(slug);
    }
    const missing = list.filter((slug) => !found.has(slug));
    if (missing.length) {
      throw new FieldProblems(
        missing.map((slug) => ({
          field: `slugs.${wanted.get(slug)}`,
          code: 'page_not_found',
          message: `No page "${slug}".`,
        })),
        'Some of the named pages do not exist.',
      );
    }
    return { slugs: list };
  }

  /** Starts the archive; entries are produced while the caller streams it out. */
  start(request: ArchiveRequest, user: AuthUser, now = new Date()): ArchiveDownload {
    const zip = createZip();
    const sources: ArchiveSources = {
      pageBatch: (afterSlug) =>
        this.browse.archiveBatch(user, request.slugs, afterSlug, PAGE_BATCH),
      siteVariables: () => this.siteVariables.get().then((s) => s.values),
      redirects: (slugs) => this.redirects.redirectsTo(slugs),
      comments: (pageIds) => this.comments.ofPages(pageIds),
      templates: () => this.templates.all(),
      media: this.media,
      dataDir: this.filesConfig.dataDir,
    };
    const run = new ArchiveRun(zip, sources, request, user, now, this.logger);
    void run.produce();
    return {
      filename: `kb-archive-${now.toISOString().replace(/[:.]/g, '-')}.zip`,
      stream: zip,
      abort: () => run.abort(),
    };
  }
}
