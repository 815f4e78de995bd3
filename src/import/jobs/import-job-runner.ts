import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { rm, stat } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import type { AuthUser } from '../../common/auth/auth-user';
import { InjectConfig } from '../../common/config/app-config';
import type { ImportConfig } from '../../common/config/import-config';
import type { FilesConfig } from '../../common/config/database-config';
import { ShutdownState } from '../../common/health/shutdown-state';
import { MediaSweeper, SweepHold } from '../../media/public-api';
import { ImportService } from '../import.service';
import { tempFolder } from '../../common/files/temp-folder';
import { ImportCancelled, ImportProgress, ImportUpload } from '../run/run-types';
import type { ImportJobEntity } from './entities/import-job.entity';
import { FINISHED_STATES } from './import-job.types';
import { ImportJobsRepository } from './import-jobs.repository';
import { toImportJobResource } from './import-job.mapper';
import { interruptedProblem, jobProblem, notResumedProblem } from './job-problem';
import { JobEvents } from './job-events';
import { JobHeartbeat } from './job-heartbeat';
import { newLeaseOwner, ownerIsGoneHere } from './lease-owner';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The abort reason of a run stopped by a graceful shutdown: its job goes back to `queued`. */
const HAND_BACK = 'hand back';

interface Run {
  controller: AbortController;
  /** Settles once the run has recorded how it ended and cleaned up. */
  ended: Promise<void>;
}

/**
 * Runs the import jobs this instance received (one run each, at once) and keeps the table
 * honest: a job whose process is gone from this host (killed, crashed) is failed at once, at
 * start and at every sweep; a job of another host is failed once its lease expires (checked at
 * start and every half lease); records past the retention period are deleted.
 *
 * A graceful shutdown (SIGTERM) hands running jobs back: their runs stop before committing
 * (an import is one transaction, so nothing of it is written), the rows go back to `queued`
 * without an owner, and the next sweep of any instance whose data folder holds the upload
 * (this one after a restart, or another sharing the folder) claims and runs them again. A job
 * nobody resumes within IMPORT_JOB_RESUME_SECONDS fails.
 */
@Injectable()
export class ImportJobRunner
  implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  /** This process, as lease owner: `<incarnation>.<pid>@<host>` (lease-owner.ts). */
  readonly instanceId = newLeaseOwner();
  private readonly logger = new Logger(ImportJobRunner.name);
  private readonly running = new Map<string, Run>();
  private timer: NodeJS.Timeout | null = null;
  /** Set at shutdown: no more jobs are claimed here. */
  private stopping = false;

  constructor(
    @InjectConfig('import') private readonly importConfig: ImportConfig,
    @InjectConfig('files') private readonly filesConfig: FilesConfig,
    private readonly jobs: ImportJobsRepository,
    private readonly imports: ImportService,
    private readonly events: JobEvents,
    private readonly shutdown: ShutdownState,
    private readonly sweeper: MediaSweeper,
  ) {}

  onModuleInit(): void {
    this.sweeper.addHold(() => this.sweepHold());
  }

  /**
   * What the media sweep must leave alone: everything stored since the oldest import still
   * queued or running, on any instance (a job whose instance died holds it until its lease
   * expires and sweep() fails it) or in this process (the synchronous route), and their
   * upload folders.
   */
  async sweepHold(): Promise<SweepHold> {
    const runs = [
      ...(await this.jobs.listUnfinished()).map((job) => ({
        since: job.createdAt,
        tempDir: job.request.tempDir,
      })),
      ...this.imports.runsInProgress(),
    ];
    let since: Date | null = null;
    for (const run of runs) if (!since || run.since < since) since = run.since;
    return { since, paths: runs.map((run) => run.tempDir).filter(Boolean) };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.shutdown.onDrainStart('import-jobs', () => this.handBack());
    this.shutdown.onDrained('import-jobs', () => this.handedBack());
    await this.sweep();
    const every = Math.min(30_000, (this.importConfig.jobLeaseSeconds * 1000) / 2);
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    this.stopClaiming();
    for (const run of this.running.values()) run.controller.abort();
  }

  /** Draining: claim nothing more and stop the running jobs so that they go back to the queue. */
  handBack(): void {
    this.stopClaiming();
    for (const run of this.running.values()) run.controller.abort(HAND_BACK);
  }

  /** Resolves once every run stopped by handBack has released its job (before the pool closes). */
  async handedBack(): Promise<void> {
    this.handBack();
    await Promise.all([...this.running.values()].map((run) => run.ended));
  }

  private stopClaiming(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The lease a job of this instance holds from now. */
  leaseUntil(now = new Date()): Date {
    return new Date(now.getTime() + this.importConfig.jobLeaseSeconds * 1000);
  }

  isLocal(id: string): boolean {
    return this.running.has(id);
  }

  /** Stops a job running here at its next step. */
  abort(id: string): void {
    this.running.get(id)?.controller.abort();
  }

  /** Runs a job this instance inserted (queued, under its lease), on the next turn. */
  start(job: ImportJobEntity, upload: ImportUpload, actor: AuthUser): void {
    const controller = new AbortController();
    let ended: () => void = () => undefined;
    this.running.set(job.id, { controller, ended: new Promise((r) => (ended = r)) });
    if (this.stopping) controller.abort(HAND_BACK);
    setImmediate(() => void this.run(job.id, upload, actor, controller).finally(ended));
  }

  private async run(
    id: string,
    upload: ImportUpload,
    actor: AuthUser,
    controller: AbortController,
  ): Promise<void> {
    // The upload stays while another instance runs the job (it claimed it first) or it waits
    // to be resumed; otherwise the job has ended and its upload goes.
    let keepUpload = false;
    try {
      if (await this.jobs.claim(id, this.instanceId, this.leaseUntil(), new Date()))
        keepUpload = await this.execute(id, upload, actor, controller);
      else keepUpload = !FINISHED_STATES.includes((await this.jobs.find(id))?.state ?? 'failed');
    } catch (error) {
      this.logger.error({ msg: 'import job not recorded', jobId: id, error: String(error) });
    } finally {
      this.running.delete(id);
      if (!keepUpload) await rm(upload.tempDir, { recursive: true, force: true });
      const job = await this.jobs.find(id).catch(() => null);
      // Followers here hear the end, or that the job went back to the queue (they follow it
      // again, wherever it is resumed).
      if (job && (FINISHED_STATES.includes(job.state) || job.state === 'queued'))
        this.events.finished(id, toImportJobResource(job));
    }
  }

  private async execute(
    id: string,
    upload: ImportUpload,
    actor: AuthUser,
    controller: AbortController,
  ): Promise<boolean> {
    const heartbeat = new JobHeartbeat(id, this, this.jobs, controller, upload.receivedBytes);
    const onProgress = (progress: ImportProgress) => {
      if (heartbeat.note(progress)) this.events.progress(id, progress);
    };
    let result: Pick<ImportJobEntity, 'state' | 'report' | 'problem'>;
    try {
      const report = await this.imports.run(
        upload,
        actor,
        { onProgress, signal: controller.signal },
        id,
      );
      result = { state: 'succeeded', report, problem: null };
    } catch (error) {
      result =
        error instanceof ImportCancelled
          ? { state: 'cancelled', report: null, problem: null }
          : { state: 'failed', report: null, problem: jobProblem(error, id) };
    } finally {
      heartbeat.stop();
    }
    if (result.state === 'cancelled' && controller.signal.reason === HAND_BACK) {
      const resumeBy = new Date(Date.now() + this.importConfig.jobResumeSeconds * 1000);
      const received = {
        phase: 'receiving' as const,
        done: upload.receivedBytes,
        total: upload.receivedBytes,
      };
      if (await this.jobs.release(id, this.instanceId, resumeBy, received)) {
        this.logger.log({ msg: 'import job handed back', jobId: id });
        return true;
      }
    }
    await this.jobs.finish(
      id,
      { ...result, finishedAt: new Date(), progress: heartbeat.last },
      this.instanceId,
    );
    return false;
  }

  /**
   * Resumes jobs handed back whose upload is here, fails jobs whose instance stopped (and
   * handed-back ones nobody resumed in time), deletes their uploads, forgets old records.
   */
  async sweep(now = new Date()): Promise<void> {
    try {
      await this.failJobsOfGoneProcesses(now);
      await this.resumeHandedBack();
      for (const job of await this.jobs.listExpired(now)) {
        if (this.isLocal(job.id)) continue;
        const problem =
          job.state === 'queued' ? notResumedProblem(job.id) : interruptedProblem(job.id);
        const failed = await this.jobs.failExpired(
          job.id,
          { state: 'failed', finishedAt: now, problem },
          now,
        );
        if (failed) {
          this.logger.warn({ msg: 'import job interrupted', jobId: job.id });
          await this.removeUpload(job.request.tempDir);
        }
      }
      await this.jobs.deleteFinishedBefore(
        new Date(now.getTime() - this.importConfig.jobRetentionDays * DAY_MS),
      );
    } catch (error) {
      this.logger.error({ msg: 'import job sweep failed', error: String(error) });
    }
  }

  /**
   * Fails at once the unfinished jobs whose lease owner is a process of this host that is no
   * longer alive (issue 28: a job killed with SIGKILL stayed `running` for its whole lease
   * after the restart). Owners on other hosts keep their lease as the guard.
   */
  private async failJobsOfGoneProcesses(now: Date): Promise<void> {
    for (const job of await this.jobs.listUnfinished()) {
      if (this.isLocal(job.id) || !ownerIsGoneHere(job.leaseOwner, this.instanceId)) continue;
      const failed = await this.jobs.failOwnedBy(job.id, job.leaseOwner!, {
        state: 'failed',
        finishedAt: now,
        problem: interruptedProblem(job.id, 'gone'),
      });
      if (failed) {
        this.logger.warn({
          msg: 'import job interrupted',
          jobId: job.id,
          reason: 'its process is gone',
          owner: job.leaseOwner,
        });
        await this.removeUpload(job.request.tempDir);
      }
    }
  }

  /** Claims and runs the handed-back jobs whose upload folder is in this data folder. */
  private async resumeHandedBack(): Promise<void> {
    for (const job of await this.jobs.listHandedBack()) {
      if (this.stopping) return;
      const { request } = job;
      if (this.isLocal(job.id) || !this.isOurs(request.tempDir)) continue;
      if (
        !(await stat(request.tempDir).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        continue;
      this.logger.log({ msg: 'import job resumed', jobId: job.id });
      const upload: ImportUpload = {
        options: request.options,
        files: request.files,
        tempDir: request.tempDir,
        receivedBytes: request.receivedBytes,
        async: true,
        // Its Idempotency-Key answer was stored when it was received; nothing replays it here.
        fingerprint: '',
      };
      // Import runs only for administrators; the job was checked when it was received.
      const actor: AuthUser = { ...request.createdBy, role: 'admin', groups: [], via: 'session' };
      this.start(job, upload, actor);
    }
  }

  /** Whether `tempDir` is an upload folder under this data folder (never trust a row's path). */
  private isOurs(tempDir: string): boolean {
    const inside = relative(tempFolder(this.filesConfig.dataDir), tempDir);
    return Boolean(tempDir) && Boolean(inside) && !inside.startsWith('..') && !isAbsolute(inside);
  }

  /** An upload folder left by a dead instance, if it is under this data folder. */
  private async removeUpload(tempDir: string): Promise<void> {
    if (!this.isOurs(tempDir)) return;
    await rm(tempDir, { recursive: true, force: true });
  }
}
