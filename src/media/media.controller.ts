import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { PageQueryDto } from '../common/http/page-query.dto';
import { Page, parsePageRequest } from '../common/http/pagination';
import { contentConditions, sendContent } from './http/content-response';
import { MediaContentService } from './media-content.service';
import { MediaResponse } from './media.mapper';
import { MediaService } from './media.service';

@ApiTags('media')
@Controller('api/images')
export class ImagesController {
  constructor(
    private readonly media: MediaService,
    private readonly content: MediaContentService,
  ) {}

  @Post()
  @Editors()
  @ApiConsumes('multipart/form-data')
  @ApiOperation({
    summary:
      'Upload a PNG, JPEG, GIF or WebP image (multipart field `file`); the type is checked from the bytes',
  })
  uploadImage(@Req() req: Request, @CurrentUser() user: AuthUser): Promise<MediaResponse> {
    return this.media.upload(req, 'image', user);
  }

  @Get()
  @Editors()
  @ApiOperation({ summary: 'List image metadata, newest first, with the uploader' })
  listImages(@Query() query: PageQueryDto): Promise<Page<MediaResponse>> {
    return this.media.list('image', parsePageRequest(query));
  }

  @Get(':id')
  @Editors()
  @ApiOperation({ summary: "One image's metadata" })
  getImage(@Param('id') id: string): Promise<MediaResponse> {
    return this.media.get('image', id);
  }

  @Get(':id/content')
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'image/webp')
  @ApiOperation({
    summary: 'The image bytes (any signed-in user); ETag, If-None-Match and single Range supported',
  })
  async getImageContent(
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await sendContent(res, await this.content.serve('image', id, contentConditions(req)));
  }

  @Delete(':id')
  @Editors()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an image; 409 media_in_use with the slugs of pages that still reference it',
  })
  async deleteImage(@Param('id') id: string): Promise<void> {
    await this.media.remove('image', id);
  }
}

@ApiTags('media')
@Controller('api/attachments')
export class AttachmentsController {
  constructor(
    private readonly media: MediaService,
    private readonly content: MediaContentService,
  ) {}

  @Post()
  @Editors()
  @ApiConsumes('multipart/form-data')
  @ApiOperation({
    summary:
      'Upload an attachment of any type (multipart field `file`); always served as a download',
  })
  uploadAttachment(@Req() req: Request, @CurrentUser() user: AuthUser): Promise<MediaResponse> {
    return this.media.upload(req, 'attachment', user);
  }

  @Get()
  @Editors()
  @ApiOperation({ summary: 'List attachment metadata, newest first, with the uploader' })
  listAttachments(@Query() query: PageQueryDto): Promise<Page<MediaResponse>> {
    return this.media.list('attachment', parsePageRequest(query));
  }

  @Get(':id')
  @Editors()
  @ApiOperation({ summary: "One attachment's metadata" })
  getAttachment(@Param('id') id: string): Promise<MediaResponse> {
    return this.media.get('attachment', id);
  }

  @Get(':id/content')
  @ApiProduces('application/octet-stream')
  @ApiOperation({
    summary:
      'The attachment bytes as a download (any signed-in user); ETag, If-None-Match and single Range supported',
  })
  async getAttachmentContent(
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await sendContent(res, await this.content.serve('attachment', id, contentConditions(req)));
  }

  @Delete(':id')
  @Editors()
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete an attachment; 409 media_in_use with the slugs of pages that still reference it',
  })
  async deleteAttachment(@Param('id') id: string): Promise<void> {
    await this.media.remove('attachment', id);
  }
}
