import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { ImportProgress } from '../run/run-types';
import type { ImportJobResource } from './import-job.types';

export interface JobListener {
  progress(progress: ImportProgress): void;
  state(job: ImportJobResource): void;
}

/** In-process progress and final states of the jobs this instance runs (for SSE followers). */
@Injectable()
export class JobEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  progress(id: string, progress: ImportProgress): void {
    this.emitter.emit(`progress:${id}`, progress);
  }

  finished(id: string, job: ImportJobResource): void {
    this.emitter.emit(`state:${id}`, job);
  }

  /** Follows one job until the returned function is called. */
  follow(id: string, listener: JobListener): () => void {
    const onProgress = (p: ImportProgress) => listener.progress(p);
    const onState = (job: ImportJobResource) => listener.state(job);
    this.emitter.on(`progress:${id}`, onProgress);
    this.emitter.on(`state:${id}`, onState);
    return () => {
      this.emitter.off(`progress:${id}`, onProgress);
      this.emitter.off(`state:${id}`, onState);
    };
  }
}
