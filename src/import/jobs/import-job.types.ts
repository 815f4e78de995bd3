import type { ProblemBody } from '../../common/problems/problem';
import type { ImportOptions, ImportReport } from '../import.types';
import type { ImportProgress } from '../run/run-types';

export const IMPORT_JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type ImportJobState = (typeof IMPORT_JOB_STATES)[number];

/** States a job leaves no more. */
export const FINISHED_STATES: readonly ImportJobState[] = ['succeeded', 'failed', 'cancelled'];

/** What a job keeps of its request: the options and where its upload waits. */
export interface StoredImportRequest {
  options: ImportOptions;
  /** The upload's folder on the instance that received it (removed when the job ends). */
  tempDir: string;
  files: { name: string; tempPath: string; size: number }[];
  receivedBytes: number;
  /** Who started it, as they were then (the row's created_by is cleared if the user goes). */
  createdBy: UserRef;
}

export interface UserRef {
  id: string;
  username: string;
  displayName: string;
}

/** GET /api/import/jobs/{id}. */
export interface ImportJobResource {
  id: string;
  state: ImportJobState;
  format: string;
  dryRun: boolean;
  createdBy: UserRef | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: ImportProgress;
  report: ImportReport | null;
  problem: ProblemBody | null;
}
