import { Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import type { AuthUser } from '../common/auth/auth-user';
import { InjectConfig } from '../common/config/app-config';
import type { ImportConfig } from '../common/config/import-config';
import type { PagesConfig } from '../common/config/pages-config';
import { Database } from '../common/database/database';
import { Outbox } from '../common/events/outbox';
import { audit } from '../common/logging/audit';
import { UsersService } from '../auth/public-api';
import { MediaService } from '../media/public-api';
import {
  PageBinService,
  PageRedirectsService,
  PagesService,
  PageTemplatesService,
  PageWriterService,
  SiteVariablesService,
} from '../pages/public-api';
import type { ImportReport } from './import.types';
import { ImportRun } from './run/import-run';
import { CommentsArchive } from '../comments/public-api';
import type { ImportDeps, ImportUpload, RunHooks } from './run/run-types';

/**
 * POST /api/import's use case: one ImportRun per received upload (see run/import-run.ts,
 * which records the `import.finished` event with its pages), then the audit line.
 */
@Injectable()
export class ImportService {
  private readonly deps: ImportDeps;
  /** The runs in progress in this process (MediaSweeper leaves what they stored alone). */
  private readonly running = new Set<{ since: Date; tempDir: string }>();

  constructor(
    @InjectConfig('import') importConfig: ImportConfig,
    @InjectConfig('pages') pagesConfig: PagesConfig,
    db: Database,
    pages: PagesService,
    writer: PageWriterService,
    bin: PageBinService,
    redirects: PageRedirectsService,
    siteVariables: SiteVariablesService,
    media: MediaService,
    users: UsersService,
    outbox: Outbox,
    comments: CommentsArchive,
    templates: PageTemplatesService,
  ) {
    this.deps = {
      config: { import: importConfig, pages: pagesConfig },
      db,
      pages,
      writer,
      bin,
      redirects,
      siteVariables,
      media,
      users,
      outbox,
      comments,
      templates,
    };
  }

  /** The start and upload folder of each run in progress in this process. */
  runsInProgress(): { since: Date; tempDir: string }[] {
    return [...this.running];
  }

  /** The synchronous route: runs the upload now; its files are removed whatever happens. */
  async importNow(upload: ImportUpload, actor: AuthUser): Promise<ImportReport> {
    try {
      return await this.run(upload, actor);
    } finally {
      await rm(upload.tempDir, { recursive: true, force: true });
    }
  }

  /** Runs one import (the upload's files stay for the caller to remove) and audits it. */
  async run(
    upload: ImportUpload,
    actor: AuthUser,
    hooks: RunHooks = {},
    jobId?: string,
  ): Promise<ImportReport> {
    const run = { since: new Date(), tempDir: upload.tempDir };
    this.running.add(run);
    let report: ImportReport;
    try {
      report = await new ImportRun(this.deps, upload, actor, hooks, jobId).execute();
    } finally {
      this.running.delete(run);
    }
    audit('import.finished', {
      actorId: actor.id,
      target: `import:${report.format}`,
      prefix: upload.options.prefix || null,
      dryRun: report.dryRun,
      counts: { ...report.counts },
      ...(jobId ? { jobId } : {}),
    });
    return report;
  }
}
