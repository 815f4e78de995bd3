import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { PagesModule } from '../pages/public-api';
import { CollabController } from './collab.controller';
import { CollabFanout } from './collab-fanout';
import { CollabGateway } from './collab.gateway';
import { CollabMetrics } from './collab-metrics';
import { CollabRepository } from './store/collab.repository';

/** Live co-editing: the /collab WebSocket, its sessions and their storage (docs/collab.md). */
@Module({
  imports: [AuthModule, PagesModule],
  controllers: [CollabController],
  providers: [CollabGateway, CollabRepository, CollabMetrics, CollabFanout],
})
export class CollabModule {}
