import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import { DigestService } from './digest.service';

export class DigestSettingsResponse {
  @ApiProperty({ description: 'whether a daily email digest of your unread inbox is sent' })
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "where it goes: your account's email (none set: nothing is sent)",
  })
  email: string | null;

  @ApiProperty({ description: 'whether this server sends mail at all (SMTP configured)' })
  mailConfigured: boolean;
}

export class UpdateDigestDto {
  @ApiProperty({ description: 'true: send me the daily digest; false: stop' })
  @IsBoolean()
  enabled: boolean;
}

/** The caller's own email digest setting. */
@ApiTags('notifications')
@Controller('api/me/digest')
export class DigestController {
  constructor(private readonly digest: DigestService) {}

  @Get()
  @ApiOperation({ summary: 'Whether you get the daily email digest of your inbox' })
  @ApiResult(DigestSettingsResponse)
  getDigest(@CurrentUser() user: AuthUser): Promise<DigestSettingsResponse> {
    return this.digest.settings(user);
  }

  @Put()
  @ApiOperation({ summary: 'Turn the daily email digest of your inbox on or off' })
  @ApiResult(DigestSettingsResponse)
  setDigest(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateDigestDto,
  ): Promise<DigestSettingsResponse> {
    return this.digest.setEnabled(user, body.enabled);
  }
}
