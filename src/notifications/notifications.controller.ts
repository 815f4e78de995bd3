import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { parseListRequest } from '../common/http/pagination';
import { NotificationQueryDto } from './dto/notification-query.dto';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { NotificationList } from './dto/notification-response.dto';
import { NotificationsService } from './notifications.service';

/** The caller's own inbox: any signed-in user, by session or token. */
@ApiTags('notifications')
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Your notifications, newest first, paged; `unread=true` for unread only; with the unread count',
  })
  @ApiResult(NotificationList)
  listNotifications(
    @CurrentUser() user: AuthUser,
    @Query() query: NotificationQueryDto,
  ): Promise<NotificationList> {
    return this.notifications.list(user, parseListRequest(query), query.unread === 'true');
  }

  // Declared before `:id/read` so "all" is never taken for an id.
  @Post('all/read')
  @HttpCode(204)
  @ApiOperation({ summary: 'Mark all your notifications read (idempotent)' })
  async markAllNotificationsRead(@CurrentUser() user: AuthUser): Promise<void> {
    await this.notifications.markAllRead(user);
  }

  @Post(':id/read')
  @HttpCode(204)
  @ApiOperation({ summary: "Mark one notification read (idempotent); another user's is 404" })
  async markNotificationRead(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParam('notification')) id: string,
  ): Promise<void> {
    await this.notifications.markRead(user, id);
  }
}
