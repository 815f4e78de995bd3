import { Env, IntRange } from './env-schema';

const MIB = 1024 * 1024;

/** Imports (Markdown ZIPs, Confluence exports) and their background jobs. */
export class ImportConfig {
  @Env('IMPORT_MAX_BYTES', 'int') @IntRange(1, 1024 * MIB) maxBytes = 100 * MIB;

  @Env('IMPORT_MAX_ENTRIES', 'int') @IntRange(1, 1_000_000) maxEntries = 20_000;

  /** IMPORT_JOB_RETENTION_DAYS: days a finished import job's record is kept. */
  @Env('IMPORT_JOB_RETENTION_DAYS', 'int') @IntRange(1, 3650) jobRetentionDays = 7;

  /** IMPORT_JOB_LEASE_SECONDS: an instance's claim on a running job lasts this long without renewal. */
  @Env('IMPORT_JOB_LEASE_SECONDS', 'int') @IntRange(2, 3600) jobLeaseSeconds = 60;

  /** IMPORT_JOB_RESUME_SECONDS: a job handed back at shutdown waits this long for an instance holding its upload. */
  @Env('IMPORT_JOB_RESUME_SECONDS', 'int') @IntRange(10, 7 * 86_400) jobResumeSeconds = 3600;
}
