import { ApiProperty } from '@nestjs/swagger';
import { UserRefResponse } from '../../auth/public-api';
import type { ProblemBody } from '../../common/problems/problem';
import { listOf } from '../../common/openapi/list-of';
import {
  IMPORT_JOB_STATES,
  type ImportJobResource,
  type ImportJobState,
} from '../jobs/import-job.types';
import { IMPORT_PHASES, type ImportPhase, type ImportProgress } from '../run/run-types';
import { ImportReportResponse } from './import-report.dto';

/** The import job resource (jobs/import-job.mapper.ts) with its OpenAPI schema. */

export class ImportProgressResponse implements ImportProgress {
  @ApiProperty({ enum: IMPORT_PHASES, description: 'The phase the import is in.' })
  phase: ImportPhase;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Units done in this phase (bytes, files, documents); never goes back within a phase.',
  })
  done: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Units of this phase.' })
  total: number;
}

export class ImportJobResponse implements ImportJobResource {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: IMPORT_JOB_STATES })
  state: ImportJobState;

  @ApiProperty({ example: 'markdown' })
  format: string;

  @ApiProperty()
  dryRun: boolean;

  @ApiProperty({
    type: UserRefResponse,
    nullable: true,
    description: 'Who started it; null once that account is deleted.',
  })
  createdBy: UserRefResponse | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: string | null;

  @ApiProperty({ type: ImportProgressResponse })
  progress: ImportProgressResponse;

  @ApiProperty({
    type: ImportReportResponse,
    nullable: true,
    description: 'When succeeded: the report the synchronous import answers with.',
  })
  report: ImportReportResponse | null;

  // Problem is a schema of its own (error-responses.ts), not a class.
  @ApiProperty({
    allOf: [{ $ref: '#/components/schemas/Problem' }],
    nullable: true,
    description:
      'When failed: the problem document the synchronous import would have answered with (`import_interrupted` when the instance running it stopped).',
  })
  problem: ProblemBody | null;
}

export class ImportJobList extends listOf(ImportJobResponse) {}
