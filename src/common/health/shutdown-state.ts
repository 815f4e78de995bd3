import { Global, Injectable, Module } from '@nestjs/common';

/** Work to finish before the database closes (e.g. import jobs handing their leases back). */
export type DrainHook = () => Promise<void>;

/**
 * Whether this instance is shutting down (SIGTERM): /readyz answers 503 from the first moment,
 * responses ask the client to close the connection, the listeners registered with
 * `onDrainStart` hear of it at once (to stop long work early), and the hooks registered with
 * `onDrained` run once the last request has finished, before the database pool closes.
 */
@Injectable()
export class ShutdownState {
  private drainingSince: Date | null = null;
  private readonly hooks = new Map<string, DrainHook>();
  private readonly starters = new Map<string, () => void>();

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(): void {
    if (this.drainingSince) return;
    this.drainingSince = new Date();
    for (const start of this.starters.values()) start();
  }

  /** Calls `listener` when draining starts (a second registration under one name replaces it). */
  onDrainStart(name: string, listener: () => void): void {
    this.starters.set(name, listener);
  }

  /** Registers `hook` under `name` (a second registration under one name replaces the first). */
  onDrained(name: string, hook: DrainHook): void {
    this.hooks.set(name, hook);
  }

  /** Runs every hook; a failing hook is reported and does not stop the others. */
  async runHooks(report: (name: string, error: unknown) => void): Promise<void> {
    for (const [name, hook] of this.hooks) {
      try {
        await hook();
      } catch (error) {
        report(name, error);
      }
    }
  }
}

/** ShutdownState for every module (features register their drain work with it). */
@Global()
@Module({ providers: [ShutdownState], exports: [ShutdownState] })
export class ShutdownModule {}
