import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { AuthUser } from '../../common/auth/auth-user';
import { Accepted, locationOf } from '../../common/http/created';
import { cursorPosition, Paged, ListRequest, toPaged } from '../../common/http/pagination';
import { ConflictProblem, NotFoundProblem } from '../../common/problems/problem';
import type { ImportProgress, ImportUpload } from '../run/run-types';
import { ImportJobEntity } from './entities/import-job.entity';
import { FINISHED_STATES, ImportJobResource } from './import-job.types';
import { toImportJobResource } from './import-job.mapper';
import { ImportJobRunner } from './import-job-runner';
import { ImportJobsRepository } from './import-jobs.repository';
import { JobEvents, JobListener } from './job-events';
import { failedJobJUnit, fileErrorsOf, importReportJUnit } from './junit-report';
import type { ImportReport } from '../import.types';

/** How often a follower of a job running on another instance reads its row. */
const POLL_MS = 500;

/**
 * Import jobs: POST /api/import with async=true, and /api/import/jobs. The row in the
 * database is the truth any instance answers from; the instance that received the upload
 * runs it (ImportJobRunner).
 */
@Injectable()
export class ImportJobsService {
  constructor(
    private readonly jobs: ImportJobsRepository,
    private readonly runner: ImportJobRunner,
    private readonly events: JobEvents,
  ) {}

  /** Records the received upload as a queued job and starts it here; 202 with its Location. */
  async create(upload: ImportUpload, actor: AuthUser): Promise<Accepted<ImportJobResource>> {
    const now = new Date();
    const { options, tempDir, files, receivedBytes } = upload;
    const job: ImportJobEntity = {
      id: randomUUID(),
      state: 'queued',
      format: options.format,
      dryRun: options.dryRun,
      createdBy: actor.id,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
      request: {
        options,
        tempDir,
        files,
        receivedBytes,
        createdBy: { id: actor.id, username: actor.username, displayName: actor.displayName },
      },
      progress: { phase: 'receiving', done: receivedBytes, total: receivedBytes },
      report: null,
      problem: null,
      cancelRequested: false,
      leaseOwner: this.runner.instanceId,
      leaseExpiresAt: this.runner.leaseUntil(now),
    };
    try {
      await this.jobs.insert(job);
    } catch (error) {
      await rm(tempDir, { recursive: true, force: true });
      throw error;
    }
    this.runner.start(job, upload, actor);
    return new Accepted(toImportJobResource(job), locationOf('import/jobs', job.id));
  }

  async get(id: string): Promise<ImportJobResource> {
    return toImportJobResource(await this.require(id));
  }

  async list(page: ListRequest): Promise<Paged<ImportJobResource>> {
    const after = cursorPosition(page.cursor);
    const rows = await this.jobs.list(after, page.limit + 1);
    return toPaged(rows, page.limit, toImportJobResource, (job) => ({
      at: job.createdAt.toISOString(),
      id: job.id,
    }));
  }

  /**
   * A succeeded job's report, as JSON or as JUnit XML (junit-report.ts). 409 `job_not_finished`
   * while it is queued or running. A failed job whose problem names files (a strict import
   * refused for invalid files) answers JUnit with those files failing; otherwise (JSON, a
   * cancelled job, a failure without per-file errors) 409 `job_has_no_report` (nothing was
   * written; GET the job for its problem).
   */
  async report(id: string, as: 'json' | 'junit'): Promise<ImportReport | string> {
    const job = await this.require(id);
    if (!FINISHED_STATES.includes(job.state))
      throw new ConflictProblem(
        'job_not_finished',
        `This import job is ${job.state}; its report comes when it has finished.`,
        { state: job.state },
      );
    const options = job.request.options;
    const junitJob = {
      id: job.id,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
      prefix: options.prefix,
      mode: options.mode ?? 'merge',
    };
    // A failed job whose problem names files (a strict import refused for invalid files):
    // those files as JUnit failures. JSON has the job's problem instead.
    const fileErrors = job.state === 'failed' ? fileErrorsOf(job.problem) : [];
    if (as === 'junit' && fileErrors.length > 0 && job.problem)
      return failedJobJUnit(
        { ...junitJob, format: job.format, dryRun: job.dryRun },
        job.problem,
        fileErrors,
      );
    if (job.state !== 'succeeded' || !job.report)
      throw new ConflictProblem(
        'job_has_no_report',
        `This import job ${job.state === 'cancelled' ? 'was cancelled' : 'failed'}; nothing was imported (the job has its problem).`,
        { state: job.state },
      );
    if (as === 'json') return job.report;
    return importReportJUnit(job.report, junitJob);
  }

  /**
   * Stops a queued or running job (nothing of it is written); 409 `job_finished` once it ended.
   * A queued job is cancelled at once; a running one at its next step, on whichever instance.
   */
  async cancel(id: string): Promise<ImportJobResource> {
    const job = await this.require(id);
    if (FINISHED_STATES.includes(job.state)) throw finishedProblem(job);
    // Here first: on SQLite the writes below wait while the job's transaction holds the writer.
    this.runner.abort(id);
    const cancelledQueued = await this.jobs.cancelQueued(id, new Date());
    if (cancelledQueued || (await this.jobs.requestCancel(id))) return this.get(id);
    // It ended meanwhile: stopped by this cancel, or finished before it.
    const ended = await this.require(id);
    if (ended.state !== 'cancelled') throw finishedProblem(ended);
    return toImportJobResource(ended);
  }

  /**
   * Follows a job for its event stream: first its current state, then its progress (never
   * going back within a phase) and its final state, after which `close` is called. Returns the
   * function that stops following.
   */
  async follow(id: string, listener: JobListener, close: () => void): Promise<() => void> {
    const first = await this.require(id);
    let last: ImportProgress | undefined;
    let ended = false;
    const stops: (() => void)[] = [];
    const stop = () => stops.forEach((s) => s());
    const follower: JobListener = {
      progress: (progress) => {
        if (ended || !advances(last, progress)) return;
        last = progress;
        listener.progress(progress);
      },
      state: (job) => {
        if (ended) return;
        ended = true;
        stop();
        listener.state(job);
        close();
      },
    };
    const local = this.runner.isLocal(id);
    // Events that come while the current row is read wait until its state event has gone.
    let early: ((f: JobListener) => void)[] | null = [];
    if (local) {
      stops.push(
        this.events.follow(id, {
          progress: (p) => (early ? void early.push((f) => f.progress(p)) : follower.progress(p)),
          state: (job) => (early ? void early.push((f) => f.state(job)) : follower.state(job)),
        }),
      );
    }
    const current = local ? await this.require(id) : first;
    const resource = toImportJobResource(current);
    if (FINISHED_STATES.includes(current.state)) {
      follower.state(resource);
      return stop;
    }
    listener.state(resource);
    last = current.progress;
    const waiting = early ?? [];
    early = null;
    waiting.forEach((deliver) => deliver(follower));
    if (!local) stops.push(this.poll(id, follower));
    return stop;
  }

  /** Reads the row of a job running elsewhere every POLL_MS. */
  private poll(id: string, follower: JobListener): () => void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void this.jobs
        .find(id)
        .then((job) => {
          if (!job) return;
          follower.progress(job.progress);
          if (FINISHED_STATES.includes(job.state)) follower.state(toImportJobResource(job));
        })
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async require(id: string): Promise<ImportJobEntity> {
    const job = await this.jobs.find(id);
    if (!job) throw new NotFoundProblem('import_job');
    return job;
  }
}

/** Whether `next` is news after `last`: a later phase, or more done in the same one. */
function advances(last: ImportProgress | undefined, next: ImportProgress): boolean {
  if (!last || last.phase !== next.phase) return true;
  return next.done > last.done;
}

function finishedProblem(job: ImportJobEntity): ConflictProblem {
  return new ConflictProblem('job_finished', `This import job has ended already (${job.state}).`, {
    state: job.state,
  });
}
