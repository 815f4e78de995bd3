import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { MediaModule } from '../media/public-api';
import { PagesModule } from '../pages/public-api';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';
import { ImportUploadReceiver } from './intake/import-upload';
import { ImportJobRunner } from './jobs/import-job-runner';
import { ImportJobsController } from './jobs/import-jobs.controller';
import { ImportJobsRepository } from './jobs/import-jobs.repository';
import { ImportJobsService } from './jobs/import-jobs.service';
import { JobEvents } from './jobs/job-events';

@Module({
  imports: [AuthModule, PagesModule, MediaModule],
  controllers: [ImportController, ImportJobsController],
  providers: [
    ImportService,
    ImportUploadReceiver,
    ImportJobsRepository,
    ImportJobRunner,
    ImportJobsService,
    JobEvents,
  ],
  exports: [ImportService],
})
export class ImportModule {}
