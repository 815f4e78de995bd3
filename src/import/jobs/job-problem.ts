import { Problem, ProblemBody, problemType, titleFor } from '../../common/problems/problem';

const INSTANCE = '/api/import';

/** The problem document the synchronous import would have answered with for `error`. */
export function jobProblem(error: unknown, jobId: string): ProblemBody {
  if (error instanceof Problem)
    return {
      type: problemType(error.code),
      title: titleFor(error.status),
      status: error.status,
      detail: error.detail,
      instance: INSTANCE,
      code: error.code,
      ...error.extensions,
      jobId,
    };
  return {
    type: problemType('internal_error'),
    title: titleFor(500),
    status: 500,
    detail:
      'Something went wrong on our side; nothing was imported. Quote the job id when you report it.',
    instance: INSTANCE,
    code: 'internal_error',
    jobId,
  };
}

/**
 * The problem of a job whose instance stopped (crash, kill, lost database) while it ran: found
 * by its process being gone from the host (`gone`), or by its lease running out (`lease`).
 */
export function interruptedProblem(jobId: string, found: 'gone' | 'lease' = 'lease'): ProblemBody {
  const how =
    found === 'gone' ? 'its process on this host had stopped running' : 'its lease expired';
  return {
    type: problemType('import_interrupted'),
    title: titleFor(500),
    status: 500,
    detail: `The kb instance running this import stopped before it finished (${how}); nothing of it was written. Start the import again.`,
    instance: INSTANCE,
    code: 'import_interrupted',
    jobId,
  };
}

/** The problem of a job handed back at a shutdown that no instance resumed in time. */
export function notResumedProblem(jobId: string): ProblemBody {
  return {
    type: problemType('import_interrupted'),
    title: titleFor(500),
    status: 500,
    detail:
      'The kb instance running this import shut down and handed it back, but no instance holding its upload resumed it within IMPORT_JOB_RESUME_SECONDS; nothing of it was written. Start the import again.',
    instance: INSTANCE,
    code: 'import_interrupted',
    jobId,
  };
}
