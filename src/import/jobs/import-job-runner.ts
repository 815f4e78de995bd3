import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import type { AuthUser } from '../../common/auth/auth-user';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { ImportService } from '../import.service';
import { tempFolder } from '../../common/files/temp-folder';
import { ImportCancelled, ImportProgress, ImportUpload } from '../run/run-types';
import type { ImportJobEntity } from './entities/import-job.entity';
import { ImportJobsRepository } from './import-jobs.repository';
import { toImportJobResource } from './import-job.mapper';
import { interruptedProblem, jobProblem } from './job-problem';
import { JobEvents } from './job-events';
import { JobHeartbeat } from './job-heartbeat';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Runs the import jobs this instance received (one run each, at once) and keeps the table
 * honest: a job whose instance stopped is failed once its lease expires (checked at start and
 * every half lease), and records past the retention period are deleted.
 */
@Injectable()
export class ImportJobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  /** This process, as lease owner. */
  readonly instanceId = randomUUID();
  private readonly logger = new Logger(ImportJobRunner.name);
  private readonly running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ImportJobsRepository,
    private readonly imports: ImportService,
    private readonly events: JobEvents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    const every = Math.min(30_000, (this.config.importJobLeaseSeconds * 1000) / 2);
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const controller of this.running.values()) controller.abort();
  }

  /** The lease a job of this instance holds from now. */
  leaseUntil(now = new Date()): Date {
    return new Date(now.getTime() + this.config.importJobLeaseSeconds * 1000);
  }

  isLocal(id: string): boolean {
    return this.running.has(id);
  }

  /** Stops a job running here at its next step. */
  abort(id: string): void {
    this.running.get(id)?.abort();
  }

  /** Runs a job this instance inserted (queued, under its lease), on the next turn. */
  start(job: ImportJobEntity, upload: ImportUpload, actor: AuthUser): void {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    setImmediate(() => void this.run(job.id, upload, actor, controller));
  }

  private async run(
    id: string,
    upload: ImportUpload,
    actor: AuthUser,
    controller: AbortController,
  ): Promise<void> {
    try {
      if (await this.jobs.claim(id, this.instanceId, this.leaseUntil(), new Date()))
        await this.execute(id, upload, actor, controller);
    } catch (error) {
      this.logger.error({ msg: 'import job not recorded', jobId: id, error: String(error) });
    } finally {
      this.running.delete(id);
      await rm(upload.tempDir, { recursive: true, force: true });
      const job = await this.jobs.find(id).catch(() => null);
      if (job) this.events.finished(id, toImportJobResource(job));
    }
  }

  private async execute(
    id: string,
    upload: ImportUpload,
    actor: AuthUser,
    controller: AbortController,
  ): Promise<void> {
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
    await this.jobs.finish(
      id,
      { ...result, finishedAt: new Date(), progress: heartbeat.last },
      this.instanceId,
    );
  }

  /** Fails jobs whose instance stopped, deletes their uploads, forgets old records. */
  async sweep(now = new Date()): Promise<void> {
    try {
      for (const job of await this.jobs.listExpired(now)) {
        if (this.isLocal(job.id)) continue;
        const failed = await this.jobs.failExpired(
          job.id,
          { state: 'failed', finishedAt: now, problem: interruptedProblem(job.id) },
          now,
        );
        if (failed) {
          this.logger.warn({ msg: 'import job interrupted', jobId: job.id });
          await this.removeUpload(job.request.tempDir);
        }
      }
      await this.jobs.deleteFinishedBefore(
        new Date(now.getTime() - this.config.importJobRetentionDays * DAY_MS),
      );
    } catch (error) {
      this.logger.error({ msg: 'import job sweep failed', error: String(error) });
    }
  }

  /** An upload folder left by a dead instance, if it is under this data folder. */
  private async removeUpload(tempDir: string): Promise<void> {
    const inside = relative(tempFolder(this.config.dataDir), tempDir);
    if (!tempDir || inside.startsWith('..') || isAbsolute(inside)) return;
    await rm(tempDir, { recursive: true, force: true });
  }
}
