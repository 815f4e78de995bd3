import { Module } from '@nestjs/common';
import { DraftsController } from './drafts.controller';
import { DraftsRepository } from './drafts.repository';
import { DraftsService } from './drafts.service';

@Module({
  controllers: [DraftsController],
  providers: [DraftsRepository, DraftsService],
  exports: [DraftsService],
})
export class DraftsModule {}
