import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { joinSlugParam } from '../common/http/slug-param';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { PrintVariablesResponse } from './dto/print-response.dto';
import { NO_STORE } from './http/download';
import { PrintVariablesService } from './print/print-variables.service';

/** What the print dialog offers to override: browser sessions only, like the other /export routes. */
@ApiTags('export')
@SessionOnly()
@Controller('export/variables')
export class PrintVariablesController {
  constructor(private readonly variables: PrintVariablesService) {}

  @Get('*slug')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    summary:
      'The variables a print/PDF request may override for this page (used by its content), with their saved values, in order of first use',
  })
  @ApiResult(PrintVariablesResponse)
  async listPrintVariables(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
  ): Promise<PrintVariablesResponse> {
    return { variables: await this.variables.list(joinSlugParam(slug), user) };
  }
}
