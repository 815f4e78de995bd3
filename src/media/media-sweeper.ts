import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InjectConfig } from '../common/config/app-config';
import type { MediaConfig } from '../common/config/media-config';
import type { FilesConfig } from '../common/config/database-config';
import { MediaService } from './media.service';
import { tempFolder } from '../common/files/temp-folder';

/**
 * What an import in progress holds back from a sweep: everything stored since `since` (its
 * start), and its upload folders. A module that writes media or temp files outside a committed
 * row (import) registers one; media never imports it.
 */
export interface SweepHold {
  since: Date | null;
  paths: string[];
}

export type SweepHoldSource = () => Promise<SweepHold>;

/**
 * Taken off an import's start before comparing with stored times: S3 keeps LastModified in
 * whole seconds, by the store's clock, and instances' clocks differ a little.
 */
const CLOCK_MARGIN_MS = 60_000;

/** Entries of the temp folder looked at between two yields to the event loop. */
const SLICE = 50;

/**
 * Removes what a process killed mid-import (kill -9, a crash) leaves for ever: stored media no
 * row references (the import's transaction never committed) and its files under
 * `<KB_DATA_DIR>/tmp` (upload folders, staged media). At start-up (in the background) and
 * every MEDIA_SWEEP_INTERVAL_SECONDS. Nothing younger than MEDIA_SWEEP_GRACE_SECONDS is
 * touched, nor anything stored since the start of an import still queued or running on any
 * instance (its rows are uncommitted), nor that import's upload folder. Several instances may
 * sweep at once: each deletion checks again right before it and deleting what is gone is no
 * error.
 */
@Injectable()
export class MediaSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MediaSweeper');
  private readonly holds: SweepHoldSource[] = [];
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<SweepResult> | null = null;

  constructor(
    private readonly media: MediaService,
    @InjectConfig('media') private readonly mediaConfig: MediaConfig,
    @InjectConfig('files') private readonly filesConfig: FilesConfig,
  ) {}

  /** Registers what holds content back (called by modules at init, before the first sweep). */
  addHold(source: SweepHoldSource): void {
    this.holds.push(source);
  }

  onApplicationBootstrap(): void {
    void this.sweep();
    const every = this.mediaConfig.sweepIntervalSeconds * 1000;
    if (every > 0) {
      this.timer = setInterval(() => void this.sweep(), every);
      this.timer.unref();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.current?.catch(() => undefined);
  }

  /** One sweep (a running one is joined, never doubled); errors are logged, not thrown. */
  sweep(now = new Date()): Promise<SweepResult> {
    this.current ??= this.run(now).finally(() => (this.current = null));
    return this.current;
  }

  private async run(now: Date): Promise<SweepResult> {
    const result: SweepResult = { media: 0, temp: 0 };
    try {
      const holds = await Promise.all(this.holds.map((hold) => hold()));
      let before = new Date(now.getTime() - this.mediaConfig.sweepGraceSeconds * 1000);
      for (const { since } of holds) {
        const held = since && new Date(since.getTime() - CLOCK_MARGIN_MS);
        if (held && held < before) before = held;
      }
      const held = new Set(holds.flatMap((h) => h.paths).map((p) => resolve(p)));
      const signal = this.stopping.signal;
      result.media = await this.media.sweepOrphanFiles(before, signal);
      result.temp = await this.sweepTemp(before, held, signal);
      if (result.media + result.temp > 0) {
        this.logger.warn({
          msg: 'removed what interrupted imports or uploads left behind',
          orphanMedia: result.media,
          tempEntries: result.temp,
        });
      }
    } catch (error) {
      this.logger.error({ msg: 'media sweep failed', error: String(error) });
    }
    return result;
  }

  /** Removes entries of the temp folder (files, upload folders) untouched since `before`. */
  private async sweepTemp(before: Date, held: Set<string>, signal: AbortSignal): Promise<number> {
    const folder = tempFolder(this.filesConfig.dataDir);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (let i = 0; i < names.length; i += 1) {
      if (signal.aborted) break;
      if (i % SLICE === SLICE - 1) await new Promise<void>((done) => setImmediate(done));
      const path = resolve(join(folder, names[i]));
      if (held.has(path)) continue;
      const newest = await newestChange(path);
      if (newest === null || newest >= before.getTime()) continue;
      await rm(path, { recursive: true, force: true });
      removed += 1;
    }
    return removed;
  }
}

export interface SweepResult {
  /** Stored contents deleted. */
  media: number;
  /** Entries of the temp folder removed. */
  temp: number;
}

/**
 * The latest modification time (ms) of `path` and, for a folder, of everything in it (a file
 * being written inside does not change its folder's time); null when it is gone.
 */
async function newestChange(path: string): Promise<number | null> {
  const info = await lstat(path).catch(() => null);
  if (!info) return null;
  let newest = info.mtimeMs;
  if (info.isDirectory()) {
    const names = await readdir(path).catch(() => [] as string[]);
    for (const name of names) {
      const inner = await newestChange(join(path, name));
      if (inner !== null && inner > newest) newest = inner;
    }
  }
  return newest;
}
