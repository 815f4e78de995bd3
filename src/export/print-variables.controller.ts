import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { joinSlugParam } from '../common/http/slug-param';
import { NO_STORE } from './http/download';
import { PrintVariable, PrintVariablesService } from './print/print-variables.service';

class PrintVariableResponse {
  @ApiProperty({ example: 'customer_name' })
  name: string;

  @ApiProperty({ description: 'the saved value (the page’s own, else the site-wide one)' })
  value: string;

  @ApiProperty({ enum: ['page', 'site'] })
  source: 'page' | 'site';
}

class PrintVariablesResponse {
  @ApiProperty({ type: [PrintVariableResponse] })
  variables: PrintVariableResponse[];
}

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
  @ApiOkResponse({ type: PrintVariablesResponse })
  async listPrintVariables(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
  ): Promise<{ variables: PrintVariable[] }> {
    return { variables: await this.variables.list(joinSlugParam(slug), user) };
  }
}
