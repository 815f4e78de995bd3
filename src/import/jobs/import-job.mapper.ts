import type { ImportJobEntity } from './entities/import-job.entity';
import type { ImportJobResource } from './import-job.types';

export function toImportJobResource(job: ImportJobEntity): ImportJobResource {
  return {
    id: job.id,
    state: job.state,
    format: job.format,
    dryRun: Boolean(job.dryRun),
    createdBy: job.createdBy ? job.request.createdBy : null,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    progress: job.progress,
    report: job.report,
    problem: job.problem,
  };
}
