import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { toMeResponse } from './auth.mapper';
import { MeResponse } from './dto/auth-response.dto';

@ApiTags('users')
@Controller('api/me')
export class MeController {
  @Get()
  @ApiOperation({
    summary: 'The caller: id, username, role (narrowed by a token scope) and groups',
  })
  @ApiResult(MeResponse)
  getMe(@CurrentUser() user: AuthUser): MeResponse {
    return toMeResponse(user);
  }
}
