import type { ImportProgress } from '../run/run-types';
import type { ImportJobsRepository } from './import-jobs.repository';

/** How often progress reaches the followers of this instance, at most. */
const EMIT_EVERY_MS = 100;
/** How often the runner writes progress and renews its lease, at most. */
const BEAT_EVERY_MS = 1000;

interface LeaseHolder {
  readonly instanceId: string;
  leaseUntil(now?: Date): Date;
}

/**
 * The running job's pulse: renews the lease with the latest progress (what other instances'
 * followers read) and stops the run when a cancel was asked for elsewhere or the lease was lost.
 * One beat at a time: on SQLite a beat waits while the import's transaction holds the writer.
 */
export class JobHeartbeat {
  last: ImportProgress;
  private lastEmit = 0;
  private beating = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly id: string,
    private readonly holder: LeaseHolder,
    private readonly jobs: ImportJobsRepository,
    private readonly controller: AbortController,
    receivedBytes: number,
  ) {
    this.last = { phase: 'receiving', done: receivedBytes, total: receivedBytes };
    this.timer = setInterval(() => void this.beat(), BEAT_EVERY_MS);
    this.timer.unref();
  }

  /** Records progress; true when followers should hear of it now (throttled). */
  note(progress: ImportProgress): boolean {
    const changedPhase = progress.phase !== this.last.phase;
    this.last = progress;
    const now = performance.now();
    if (!changedPhase && progress.done < progress.total && now - this.lastEmit < EMIT_EVERY_MS)
      return false;
    this.lastEmit = now;
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      const held = await this.jobs.renew(
        this.id,
        this.holder.instanceId,
        this.holder.leaseUntil(),
        this.last,
      );
      const job = held ? await this.jobs.find(this.id) : null;
      if (!held || job?.cancelRequested) this.controller.abort();
    } catch {
      // A busy database: the next beat tries again.
    } finally {
      this.beating = false;
    }
  }
}
