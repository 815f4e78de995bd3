import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { PagesModule } from '../pages/public-api';
import { ChangeRequestCommentsController } from './change-request-comments.controller';
import { ChangeRequestCommentsService } from './change-request-comments.service';
import { ChangeRequestLinks } from './change-request-links';
import { ChangeRequestMergeService } from './change-request-merge.service';
import { ChangeRequestPlanner } from './change-request-plan';
import { ChangeRequestsController } from './change-requests.controller';
import { ChangeRequestsService } from './change-requests.service';
import { ProtectedPathsController } from './protected-paths.controller';
import { ChangeRequestCommentsRepository } from './store/change-request-comments.repository';
import { ChangeRequestsRepository } from './store/change-requests.repository';

/** Change requests and protected paths (docs/review.md). */
@Module({
  imports: [AuthModule, PagesModule],
  controllers: [
    ChangeRequestsController,
    ChangeRequestCommentsController,
    ProtectedPathsController,
  ],
  providers: [
    ChangeRequestsRepository,
    ChangeRequestsService,
    ChangeRequestMergeService,
    ChangeRequestPlanner,
    ChangeRequestLinks,
    ChangeRequestCommentsRepository,
    ChangeRequestCommentsService,
  ],
  // The MCP server's propose_change tool runs as the caller through the same use case.
  exports: [ChangeRequestsService],
})
export class ChangeRequestsModule {}
