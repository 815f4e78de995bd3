import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../../../common/database/columns';
import type { ProblemBody } from '../../../common/problems/problem';
import type { ImportReport } from '../../import.types';
import type { ImportProgress } from '../../run/run-types';
import type { ImportJobState, StoredImportRequest } from '../import-job.types';

/** One import job (migration 1763800650000-ImportJobs). */
@Entity('import_jobs')
export class ImportJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  state: ImportJobState;

  @Column({ type: 'varchar', length: 16 })
  format: string;

  @Column({ type: 'boolean', name: 'dry_run' })
  dryRun: boolean;

  @Column({ type: 'varchar', length: 36, name: 'created_by', nullable: true })
  createdBy: string | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @DateTimeColumn({ name: 'started_at', nullable: true })
  startedAt: Date | null;

  @DateTimeColumn({ name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @JsonColumn()
  request: StoredImportRequest;

  @JsonColumn()
  progress: ImportProgress;

  @JsonColumn({ nullable: true })
  report: ImportReport | null;

  @JsonColumn({ nullable: true })
  problem: ProblemBody | null;

  @Column({ type: 'boolean', name: 'cancel_requested' })
  cancelRequested: boolean;

  @Column({ type: 'varchar', length: 64, name: 'lease_owner', nullable: true })
  leaseOwner: string | null;

  @DateTimeColumn({ name: 'lease_expires_at', nullable: true })
  leaseExpiresAt: Date | null;
}
