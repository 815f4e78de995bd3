import type { CommentsArchive } from '../../comments/public-api';
import type { AppConfig } from '../../common/config/app-config';
import type { Database } from '../../common/database/database';
import type { Outbox } from '../../common/events/outbox';
import type { UsersService } from '../../auth/public-api';
import type { MediaService } from '../../media/public-api';
import type {
  PageBinService,
  PageRedirectsService,
  PagesService,
  PageTemplatesService,
  PageWriterService,
  SiteVariablesService,
} from '../../pages/public-api';
import type { ImportOptions } from '../import.types';
import type { UploadedFile } from '../source-tree';

/** The phases an import goes through, in order (a dry run skips storing media). */
export const IMPORT_PHASES = [
  'receiving',
  'unpacking',
  'converting',
  'storing media',
  'writing pages',
] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** Where an import is: `done` of `total` in `phase`; `done` never goes back within a phase. */
export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  total: number;
}

/**
 * A received and validated POST /api/import: the options, the uploaded files on disk (in
 * `tempDir`, which whoever runs the import removes) and whether the caller wants a job.
 */
export interface ImportUpload {
  options: ImportOptions;
  files: UploadedFile[];
  tempDir: string;
  /** Bytes of the uploaded files. */
  receivedBytes: number;
  /** `async=true`: answer 202 with a job instead of the report. */
  async: boolean;
  /** The request's fields, file names and file bytes, hashed (for Idempotency-Key). */
  fingerprint: string;
}

/** What a caller may follow and stop a run with. */
export interface RunHooks {
  onProgress?: (progress: ImportProgress) => void;
  /** Aborting it stops the run at its next step, before anything is committed. */
  signal?: AbortSignal;
}

/** The services one import run uses. */
export interface ImportDeps {
  config: Pick<AppConfig, 'import' | 'pages'>;
  db: Database;
  pages: PagesService;
  writer: PageWriterService;
  bin: PageBinService;
  redirects: PageRedirectsService;
  siteVariables: SiteVariablesService;
  media: MediaService;
  users: UsersService;
  /** Where the run records `import.finished`, inside its write transaction. */
  outbox: Outbox;
  /** Restores a kb archive's comments with their pages. */
  comments: CommentsArchive;
  /** Restores a kb archive's page templates. */
  templates: PageTemplatesService;
}

/** Thrown inside a run whose signal was aborted: nothing of it is committed. */
export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
    this.name = 'ImportCancelled';
  }
}
