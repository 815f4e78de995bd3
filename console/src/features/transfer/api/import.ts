import { useQuery } from '@tanstack/react-query';
import { ApiProblem, isProblem } from '../../../api/problem';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import type { ImportReport } from '../model/import-plan';

export type ImportFormat = ImportReport['format'];

export interface ImportRequest {
  format: ImportFormat;
  files: File[];
  prefix: string;
  skipInvalid: boolean;
  /** mode=mirror: pages under the prefix that the upload does not hold go to the bin. */
  mirror: boolean;
  dryRun: boolean;
  /** Run it as a job (POST answers 202 with its address) instead of in the request. */
  asJob: boolean;
}

type Schemas = components['schemas'];
export type JobProgress = Schemas['ImportProgressResponse'];
/** An import job (GET /api/import/jobs/{id}). */
export type ImportJob = Schemas['ImportJobResponse'];

export const FINISHED: ImportJob['state'][] = ['succeeded', 'failed', 'cancelled'];

/** What the upload answered: a report (synchronous import) or the new job's address. */
export type UploadAnswer = { report: ImportReport } | { jobUrl: string };

export interface Upload {
  answer: Promise<UploadAnswer>;
  abort: () => void;
}

function formOf(request: ImportRequest): FormData {
  const form = new FormData();
  form.append('format', request.format);
  if (request.prefix.trim()) form.append('prefix', request.prefix.trim());
  form.append('dryRun', String(request.dryRun));
  form.append('skipInvalid', String(request.skipInvalid));
  if (request.mirror) form.append('mode', 'mirror');
  if (request.asJob) form.append('async', 'true');
  for (const file of request.files) form.append('files', file, file.name);
  return form;
}

function problemOf(xhr: XMLHttpRequest): ApiProblem {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(xhr.responseText) as Record<string, unknown>;
  } catch {
    body = { detail: `The server answered ${xhr.status}.` };
  }
  return new ApiProblem(xhr.status, body, xhr.getResponseHeader('Retry-After'));
}

/**
 * Sends the files with XMLHttpRequest, whose upload events (unlike fetch's) tell how much is
 * sent: `onProgress(sent, total)`. `abort()` stops the upload.
 */
export function uploadImport(
  request: ImportRequest,
  onProgress: (sent: number, total: number) => void,
): Upload {
  const xhr = new XMLHttpRequest();
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    xhr.open('POST', '/api/import');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      if (xhr.status === 202) {
        const location = xhr.getResponseHeader('Location');
        if (location) return resolve({ jobUrl: location });
      }
      if (xhr.status === 200) return resolve({ report: JSON.parse(xhr.responseText) });
      reject(problemOf(xhr));
    };
    xhr.onerror = () => reject(new TypeError('The upload failed.'));
    xhr.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
  });
  xhr.send(formOf(request));
  return { answer, abort: () => xhr.abort() };
}

/**
 * Follows a job with Server-Sent Events: `progress` events, then one `state` event with the
 * job (a late client gets the current job first). Resolves with the finished job.
 */
export function followJob(
  jobUrl: string,
  onProgress: (progress: JobProgress) => void,
  onJob: (job: ImportJob) => void,
): { finished: Promise<ImportJob>; close: () => void } {
  const source = new EventSource(`${jobUrl}/events`);
  const finished = new Promise<ImportJob>((resolve, reject) => {
    source.addEventListener('progress', (e) => onProgress(JSON.parse((e as MessageEvent).data)));
    source.addEventListener('state', (e) => {
      const job = JSON.parse((e as MessageEvent).data) as ImportJob;
      onJob(job);
      if (job.progress) onProgress(job.progress);
      if (FINISHED.includes(job.state)) {
        source.close();
        resolve(job);
      }
    });
    source.onerror = () => {
      // The browser reconnects by itself; a closed stream before the end is a failure.
      if (source.readyState === EventSource.CLOSED)
        reject(new TypeError('The progress stream ended.'));
    };
  });
  return { finished, close: () => source.close() };
}

/** The job's id from its address (`/api/import/jobs/{id}`). */
export function jobIdOf(jobUrl: string): string {
  return decodeURIComponent(jobUrl.split('/').pop() ?? '');
}

export function cancelJob(jobUrl: string): Promise<ImportJob> {
  return unwrap(
    api.POST('/api/import/jobs/{id}/cancel', { params: { path: { id: jobIdOf(jobUrl) } } }),
  );
}

export const jobsKey = ['/api/import/jobs'] as const;

/**
 * Recent import jobs, newest first; `available` is false where this kb has no jobs API (the
 * screen then imports in the request).
 */
export function useImportJobs() {
  return useQuery({
    queryKey: jobsKey,
    queryFn: async (): Promise<{ available: boolean; items: ImportJob[] }> => {
      try {
        const page = await unwrap(
          api.GET('/api/import/jobs', { params: { query: { limit: 20 } } }),
        );
        return { available: true, items: page.items };
      } catch (error) {
        if (isProblem(error, 404)) return { available: false, items: [] };
        throw error;
      }
    },
  });
}
