import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiProblem } from '../../../api/problem';
import type { ImportReport } from '../model/import-plan';
import {
  cancelJob,
  followJob,
  jobsKey,
  uploadImport,
  type ImportJob,
  type ImportRequest,
} from './import';

export type RunStage = 'idle' | 'uploading' | 'running' | 'done' | 'failed' | 'cancelled';

export interface RunState {
  stage: RunStage;
  dryRun: boolean;
  /** What the bar shows: the upload, then the job's phases. */
  phase: string;
  done: number;
  total: number;
  report: ImportReport | null;
  error: unknown;
}

const IDLE: RunState = {
  stage: 'idle',
  dryRun: false,
  phase: '',
  done: 0,
  total: 0,
  report: null,
  error: null,
};

const PHASE_WORDS: Record<string, string> = {
  receiving: 'Receiving',
  unpacking: 'Unpacking',
  converting: 'Converting',
  'storing media': 'Storing images and files',
  storing_media: 'Storing images and files',
  writing: 'Writing pages',
  'writing pages': 'Writing pages',
  writing_pages: 'Writing pages',
};

export function phaseLabel(phase: string): string {
  return PHASE_WORDS[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1).replace(/_/g, ' ');
}

function finishedState(job: ImportJob): Partial<RunState> {
  if (job.state === 'succeeded') return { stage: 'done', report: job.report };
  if (job.state === 'cancelled') return { stage: 'cancelled' };
  const problem: Record<string, unknown> = job.problem ?? { detail: 'The import failed.' };
  return {
    stage: 'failed',
    error: new ApiProblem(Number(problem.status) || 500, problem),
  };
}

/** One import at a time: upload (XHR progress), then the job (SSE progress), then the report. */
export function useImportRun() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<RunState>(IDLE);
  const abortUpload = useRef<(() => void) | null>(null);
  const jobUrl = useRef<string | null>(null);
  const closeStream = useRef<(() => void) | null>(null);
  const patch = (p: Partial<RunState>) => setState((s) => ({ ...s, ...p }));

  useEffect(() => () => closeStream.current?.(), []);

  const follow = async (url: string) => {
    jobUrl.current = url;
    patch({ stage: 'running', phase: 'queued', done: 0, total: 0 });
    const stream = followJob(
      url,
      (p) => patch({ phase: p.phase, done: p.done, total: p.total }),
      () => undefined,
    );
    closeStream.current = stream.close;
    patch(finishedState(await stream.finished));
  };

  const start = useCallback(
    async (request: ImportRequest) => {
      setState({ ...IDLE, stage: 'uploading', dryRun: request.dryRun, phase: 'uploading' });
      const upload = uploadImport(request, (done, total) => patch({ done, total }));
      abortUpload.current = upload.abort;
      try {
        const answer = await upload.answer;
        abortUpload.current = null;
        if ('report' in answer) patch({ stage: 'done', report: answer.report });
        else await follow(answer.jobUrl);
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError')
          patch({ stage: 'cancelled' });
        else patch({ stage: 'failed', error });
      } finally {
        abortUpload.current = null;
        jobUrl.current = null;
        void queryClient.invalidateQueries({ queryKey: jobsKey });
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient],
  );

  const cancel = useCallback(async () => {
    if (abortUpload.current) return abortUpload.current();
    if (jobUrl.current) {
      try {
        await cancelJob(jobUrl.current);
      } catch (error) {
        patch({ error });
      }
    }
  }, []);

  const show = useCallback((job: ImportJob) => {
    setState({ ...IDLE, dryRun: job.dryRun, ...finishedState(job) });
  }, []);

  return { state, start, cancel, show };
}
