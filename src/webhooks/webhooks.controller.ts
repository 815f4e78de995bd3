import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { WholeWikiOnly } from '../common/auth/token-scope';
import { answerWrite } from '../common/http/created';
import { UuidParam } from '../common/http/uuid-param.pipe';
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
import { WebhooksService } from './webhooks.service';

/** Signed webhooks (Standard Webhooks): administrators subscribe URLs to kb's events. */
@ApiTags('webhooks')
@AdminOnly()
@WholeWikiOnly()
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({
    summary:
      'Subscribe a URL to events; answers the signing secret (generated when not given) only here',
  })
  @ApiResult(WebhookCreatedResponse, { headers: ['Location'] })
  async createWebhook(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateWebhookDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookCreatedResponse> {
    return answerWrite(res, await this.webhooks.create(body, user));
  }

  @Get()
  @ApiOperation({ summary: 'Every webhook (without secrets)' })
  @ApiResult(WebhookList)
  listWebhooks(): Promise<Paged<WebhookResponse>> {
    return this.webhooks.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook (without its secret)' })
  @ApiResult(WebhookResponse)
  getWebhook(@Param('id', new UuidParam('webhook')) id: string): Promise<WebhookResponse> {
    return this.webhooks.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the URL, events, secret or active flag' })
  @ApiResult(WebhookResponse)
  updateWebhook(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParam('webhook')) id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    return this.webhooks.update(id, body, user);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook with its deliveries' })
  async deleteWebhook(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParam('webhook')) id: string,
  ): Promise<void> {
    await this.webhooks.remove(id, user);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The webhook's deliveries, newest first, with every attempt" })
  @ApiResult(WebhookDeliveryList)
  listWebhookDeliveries(
    @Param('id', new UuidParam('webhook')) id: string,
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
    @Param('id', new UuidParam('webhook')) id: string,
    @Param('deliveryId', new UuidParam('delivery')) deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(id, deliveryId, user);
  }
}
