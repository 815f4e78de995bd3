import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import {
  WebhookCreatedResponse,
  WebhookDeliveryList,
  WebhookDeliveryResponse,
  WebhookList,
  WebhookResponse,
} from './dto/webhook-response.dto';
import { toWebhookCreated, toWebhookResponse } from './webhooks.mapper';
import { WebhooksService } from './webhooks.service';

/** Signed webhooks (Standard Webhooks): administrators subscribe URLs to kb's events. */
@ApiTags('webhooks')
@AdminOnly()
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({
    summary:
      'Subscribe a URL to events; answers the signing secret (generated when not given) only here',
  })
  @ApiResult(WebhookCreatedResponse)
  async createWebhook(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookCreatedResponse> {
    return toWebhookCreated(await this.webhooks.create(body, user));
  }

  @Get()
  @ApiOperation({ summary: 'Every webhook (without secrets)' })
  @ApiResult(WebhookList)
  async listWebhooks(): Promise<Paged<WebhookResponse>> {
    return { items: (await this.webhooks.list()).map(toWebhookResponse), nextCursor: null };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook (without its secret)' })
  @ApiResult(WebhookResponse)
  async getWebhook(@Param('id') id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.get(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the URL, events, secret or active flag' })
  @ApiResult(WebhookResponse)
  async updateWebhook(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    return toWebhookResponse(await this.webhooks.update(id, body, user));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook with its deliveries' })
  async deleteWebhook(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(id, user);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The webhook's deliveries, newest first, with every attempt" })
  @ApiResult(WebhookDeliveryList)
  listWebhookDeliveries(
    @Param('id') id: string,
    @Query() query: ListQueryDto,
  ): Promise<Paged<WebhookDeliveryResponse>> {
    return this.webhooks.listDeliveries(id, parseListRequest(query));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again now, with the same webhook-id' })
  @ApiResult(WebhookDeliveryResponse)
  redeliverWebhookDelivery(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(id, deliveryId, user);
  }
}
