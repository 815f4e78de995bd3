import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  Type,
} from '@nestjs/common';
import {
  ApiBody,
  ApiBodyOptions,
  ApiConsumes,
  ApiHeader,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import type { MediaKind } from './entities/media.entity';
import { contentConditions, sendContent } from './http/content-response';
import { MediaContentService } from './media-content.service';
import { ApiFileResult, ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { MediaList, MediaResponse } from './dto/media-response.dto';
import { MediaService } from './media.service';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { ReceivedUpload, ReceivesUpload } from '../common/http/upload';
import { MediaUpload, MediaUploadReceiver } from './upload/media-upload';
import { AttachmentTextIndexer } from './text/attachment-text-indexer';

const ROUTES: Record<
  MediaKind,
  { path: string; controller: string; name: string; upload: string; produces: string[] }
> = {
  image: {
    path: 'api/images',
    controller: 'ImagesController',
    name: 'Image',
    upload:
      'Upload a PNG, JPEG, GIF or WebP image (multipart field `file`); the type is checked from the bytes',
    produces: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  },
  attachment: {
    path: 'api/attachments',
    controller: 'AttachmentsController',
    name: 'Attachment',
    upload:
      'Upload an attachment of any type (multipart field `file`); always served as a download',
    // Served with the type detected at upload (application/octet-stream when unknown).
    produces: ['*/*'],
  },
};

const UPLOAD_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', format: 'binary', description: 'The file.' } },
  },
};

/** The OpenAPI description of each route of one kind. */
function mediaDocs(kind: MediaKind) {
  const route = ROUTES[kind];
  const { name } = route;
  return {
    upload: applyDecorators(
      ApiConsumes('multipart/form-data'),
      ApiBody(UPLOAD_BODY),
      ApiOperation({ summary: route.upload, operationId: `upload${name}` }),
    ),
    list: ApiOperation({
      summary: `List the ${kind}s the caller may see (on a live page they can see, or uploaded by them; admins: all), newest first, with the uploader`,
      operationId: `list${name}s`,
    }),
    get: ApiOperation({
      summary: `One ${kind}'s metadata (404 unless the caller may see it)`,
      operationId: `get${name}`,
    }),
    content: applyDecorators(
      ApiOperation({
        summary: `The ${kind} bytes (any signed-in user who may see the item, else 404); sandboxed, nosniff, ETag/If-None-Match, single Range`,
        operationId: `get${name}Content`,
      }),
      ApiHeader({ name: 'Range', required: false, description: 'One byte range: `bytes=0-99`.' }),
      ApiHeader({
        name: 'If-Range',
        required: false,
        description: 'The range applies only while this ETag is current.',
      }),
      ApiHeader({
        name: 'If-None-Match',
        required: false,
        description: 'The ETag you hold: 304 while it is current.',
      }),
      ApiFileResult(Object.fromEntries(route.produces.map((type) => [type, 'binary'])), {
        headers: ['ETag', 'Content-Disposition', 'Content-Range'],
        alsoStatus: [206],
        notModified: true,
      }),
      ApiProblems(416),
    ),
    remove: applyDecorators(
      ApiOperation({
        summary: `Delete an ${kind}; 409 media_in_use while pages reference it: \`slugs\` of those you can see, \`hiddenReferences\` counts the others`,
        operationId: `delete${name}`,
      }),
      ApiProblems(409),
    ),
  };
}

/** Images and attachments have the same routes; one definition serves both kinds. */
function mediaController(kind: MediaKind): Type<unknown> {
  const route = ROUTES[kind];
  const docs = mediaDocs(kind);
  /** A path id: 404 `image_not_found` / `attachment_not_found` unless it has a UUID's shape. */
  const Id = (): ParameterDecorator => Param('id', new UuidParam(kind));

  @ApiTags('media')
  @Controller(route.path)
  class MediaController {
    constructor(
      private readonly media: MediaService,
      private readonly contents: MediaContentService,
      private readonly texts: AttachmentTextIndexer,
    ) {}

    @Post()
    @Editors()
    @ReceivesUpload(MediaUploadReceiver, kind)
    @docs.upload
    @ApiResult(MediaResponse)
    async upload(
      @ReceivedUpload() upload: MediaUpload,
      @CurrentUser() user: AuthUser,
    ): Promise<MediaResponse> {
      const stored = await this.media.upload(upload, user);
      // Its text is made searchable in the background (docs/search.md "Attachments").
      if (kind === 'attachment') this.texts.kick();
      return stored;
    }

    @Get()
    @Editors()
    @docs.list
    @ApiResult(MediaList)
    list(
      @Query() query: ListQueryDto,
      @CurrentUser() user: AuthUser,
    ): Promise<Paged<MediaResponse>> {
      return this.media.list(kind, parseListRequest(query), user);
    }

    @Get(':id')
    @Editors()
    @docs.get
    @ApiResult(MediaResponse)
    get(@Id() id: string, @CurrentUser() user: AuthUser): Promise<MediaResponse> {
      return this.media.get(kind, id, user);
    }

    @Get(':id/content')
    @docs.content
    async download(
      @Id() id: string,
      @Req() req: Request,
      @Res() res: Response,
      @CurrentUser() user: AuthUser,
    ): Promise<void> {
      await sendContent(res, await this.contents.serve(kind, id, contentConditions(req), user));
    }

    @Delete(':id')
    @Editors()
    @HttpCode(204)
    @docs.remove
    async remove(@Id() id: string, @CurrentUser() user: AuthUser): Promise<void> {
      await this.media.remove(kind, id, user);
    }
  }

  // Distinct names for logs, the route inventory and OpenAPI operation ids.
  Object.defineProperty(MediaController, 'name', { value: route.controller });
  return MediaController;
}

export const ImagesController = mediaController('image');
export const AttachmentsController = mediaController('attachment');
