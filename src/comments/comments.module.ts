import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { PagesModule } from '../pages/public-api';
import { CommentAnchorsService } from './comment-anchors.service';
import { CommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';
import { CommentsArchive } from './comments-archive';

/** Comments on pages (docs/comments.md); archives reach them through CommentsArchive. */
@Module({
  imports: [AuthModule, PagesModule],
  controllers: [CommentsController],
  providers: [CommentsRepository, CommentsService, CommentAnchorsService, CommentsArchive],
  exports: [CommentsArchive, CommentsService],
})
export class CommentsModule {}
