import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Database } from '../../common/database/database';
import type { CursorPosition } from '../../common/http/pagination';
import type { ImportProgress } from '../run/run-types';
import { ImportJobEntity } from './entities/import-job.entity';
import type { ImportJobState } from './import-job.types';

type Changes = QueryDeepPartialEntity<ImportJobEntity>;
/** How a job that will not run any more ends. */
type Ending = Pick<ImportJobEntity, 'state' | 'finishedAt' | 'problem'>;

const UNFINISHED: ImportJobState[] = ['queued', 'running'];

/** The one door to `import_jobs`. State changes are conditional updates: they say if they won. */
@Injectable()
export class ImportJobsRepository {
  constructor(private readonly db: Database) {}

  async insert(job: ImportJobEntity): Promise<void> {
    await this.db.write((t) => t.manager.insert(ImportJobEntity, job as Changes));
  }

  find(id: string): Promise<ImportJobEntity | null> {
    return this.db.manager().findOneBy(ImportJobEntity, { id });
  }

  /** Newest first; `after` continues. */
  list(after: CursorPosition | undefined, limit: number): Promise<ImportJobEntity[]> {
    const query = this.db
      .manager()
      .createQueryBuilder(ImportJobEntity, 'j')
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .take(limit);
    if (after)
      query.andWhere('(j.created_at < :at OR (j.created_at = :at AND j.id < :id))', {
        at: after.at,
        id: after.id,
      });
    return query.getMany();
  }

  /** queued → running for the instance that holds the lease; false when it was not queued. */
  claim(id: string, owner: string, leaseUntil: Date, now: Date): Promise<boolean> {
    return this.update(
      id,
      { state: 'running', startedAt: now, leaseOwner: owner, leaseExpiresAt: leaseUntil },
      ['queued'],
      owner,
    );
  }

  /** The runner's heartbeat: progress and a longer lease, while it still owns the job. */
  renew(id: string, owner: string, leaseUntil: Date, progress: ImportProgress): Promise<boolean> {
    return this.update(id, { leaseExpiresAt: leaseUntil, progress }, ['running'], owner);
  }

  /** Ends an unfinished job; false when it had ended already (or another instance owns it). */
  finish(
    id: string,
    changes: Pick<ImportJobEntity, 'state' | 'finishedAt' | 'report' | 'problem'> &
      Partial<Pick<ImportJobEntity, 'progress'>>,
    owner?: string,
  ): Promise<boolean> {
    return this.update(
      id,
      { ...changes, leaseOwner: null, leaseExpiresAt: null } as Changes,
      UNFINISHED,
      owner,
    );
  }

  /** queued → cancelled; false when it was not queued any more. */
  cancelQueued(id: string, now: Date): Promise<boolean> {
    return this.update(
      id,
      { state: 'cancelled', finishedAt: now, leaseOwner: null, leaseExpiresAt: null },
      ['queued'],
    );
  }

  /**
   * running → queued without an owner, for whichever instance resumes it before `resumeBy`:
   * the run was stopped by a graceful shutdown before it committed anything. False when this
   * instance no longer owned it, or a cancel was asked for (the job ends cancelled instead).
   */
  async release(
    id: string,
    owner: string,
    resumeBy: Date,
    progress: ImportProgress,
  ): Promise<boolean> {
    const result = await this.db.write((t) =>
      t.manager
        .createQueryBuilder()
        .update(ImportJobEntity)
        .set({
          state: 'queued',
          startedAt: null,
          leaseOwner: null,
          leaseExpiresAt: resumeBy,
          progress,
        } as Changes)
        .where('id = :id', { id })
        .andWhere("state = 'running'")
        .andWhere('lease_owner = :owner', { owner })
        .andWhere('cancel_requested = 0')
        .execute(),
    );
    return Boolean(result.affected);
  }

  /** Queued jobs no instance owns: handed back at a shutdown, waiting to be resumed. */
  listHandedBack(): Promise<ImportJobEntity[]> {
    return this.db
      .manager()
      .createQueryBuilder(ImportJobEntity, 'j')
      .where("j.state = 'queued'")
      .andWhere('j.lease_owner IS NULL')
      .orderBy('j.created_at', 'ASC')
      .getMany();
  }

  /** Asks the running job's instance to stop (it reads the flag at its next heartbeat). */
  requestCancel(id: string): Promise<boolean> {
    return this.update(id, { cancelRequested: true }, ['running']);
  }

  /** Unfinished jobs whose lease ran out: their instance stopped (or lost the database). */
  /** Jobs queued or running, whatever their lease. */
  listUnfinished(): Promise<ImportJobEntity[]> {
    return this.db
      .manager()
      .createQueryBuilder(ImportJobEntity, 'j')
      .where('j.state IN (:...states)', { states: UNFINISHED })
      .getMany();
  }

  listExpired(now: Date): Promise<ImportJobEntity[]> {
    return this.db
      .manager()
      .createQueryBuilder(ImportJobEntity, 'j')
      .where('j.state IN (:...states)', { states: UNFINISHED })
      .andWhere('j.lease_expires_at < :now', { now })
      .getMany();
  }

  /** Fails an unfinished job whose lease is still expired at `now`. */
  failExpired(id: string, changes: Ending, now: Date): Promise<boolean> {
    return this.failUnfinished(id, changes, 'lease_expires_at < :now', { now });
  }

  /** Fails an unfinished job still held by `owner` (a process that is gone). */
  failOwnedBy(id: string, owner: string, changes: Ending): Promise<boolean> {
    return this.failUnfinished(id, changes, 'lease_owner = :owner', { owner });
  }

  /** Ends an unfinished job (and its lease) when `condition` still holds. */
  private async failUnfinished(
    id: string,
    changes: Ending,
    condition: string,
    parameters: Record<string, unknown>,
  ): Promise<boolean> {
    const result = await this.db.write((t) =>
      t.manager
        .createQueryBuilder()
        .update(ImportJobEntity)
        .set({ ...changes, leaseOwner: null, leaseExpiresAt: null } as Changes)
        .where('id = :id', { id })
        .andWhere('state IN (:...states)', { states: UNFINISHED })
        .andWhere(condition, parameters)
        .execute(),
    );
    return Boolean(result.affected);
  }

  /** Forgets jobs that finished before `cutoff`. */
  async deleteFinishedBefore(cutoff: Date): Promise<number> {
    const result = await this.db.write((t) =>
      t.manager
        .createQueryBuilder()
        .delete()
        .from(ImportJobEntity)
        .where('finished_at < :cutoff', { cutoff })
        .execute(),
    );
    return result.affected ?? 0;
  }

  private async update(
    id: string,
    changes: Changes,
    states: ImportJobState[],
    owner?: string,
  ): Promise<boolean> {
    const result = await this.db.write((t) => {
      const query = t.manager
        .createQueryBuilder()
        .update(ImportJobEntity)
        .set(changes)
        .where('id = :id', { id })
        .andWhere('state IN (:...states)', { states });
      if (owner)
        query.andWhere(
          new Brackets((q) =>
            q.where('lease_owner = :owner', { owner }).orWhere('lease_owner IS NULL'),
          ),
        );
      return query.execute();
    });
    return Boolean(result.affected);
  }
}
