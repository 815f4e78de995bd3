import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Editors } from '../../common/auth/route-policy';
import { answerWrite } from '../../common/http/created';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import {
  CreatePageTemplateDto,
  PageTemplateBodyDto,
  PageTemplateList,
  PageTemplateResponse,
} from './page-template.dto';
import { PageTemplatesService } from './page-templates.service';

/** Page templates (docs/pages.md, "Templates"): administrators and editors. */
@ApiTags('templates')
@Editors()
@Controller('api/templates')
export class PageTemplatesController {
  constructor(private readonly templates: PageTemplatesService) {}

  @Get()
  @ApiOperation({ summary: 'Page templates with their prompted fields and presets' })
  @ApiResult(PageTemplateList)
  listTemplates(): Promise<PageTemplateList> {
    return this.templates.list();
  }

  @Post()
  @ApiOperation({ summary: 'Add a page template (201, Location; 409 when the name is taken)' })
  @ApiResult(PageTemplateResponse, { headers: ['Location'] })
  async createTemplate(
    @Body() body: CreatePageTemplateDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PageTemplateResponse> {
    return answerWrite(res, await this.templates.create(body));
  }

  @Put(':name')
  @ApiOperation({ summary: 'Replace a page template' })
  @ApiResult(PageTemplateResponse)
  replaceTemplate(
    @Param('name') name: string,
    @Body() body: PageTemplateBodyDto,
  ): Promise<PageTemplateResponse> {
    return this.templates.replace(name, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a page template' })
  deleteTemplate(@Param('name') name: string): Promise<void> {
    return this.templates.remove(name);
  }
}
