import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/auth/route-policy';
import { NotFoundProblem } from '../../common/problems/problem';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import { OAUTH_SCOPE_NAMES } from './oauth-base';
import { OAuthServer } from './oauth-server';

export class ProtectedResourceMetadata {
  @ApiProperty({ description: 'The protected resource: the site (REST API and /mcp).' })
  resource: string;

  @ApiProperty({ type: [String], description: 'The issuer of the tokens it accepts (kb itself).' })
  authorization_servers: string[];

  @ApiProperty({ type: [String] })
  scopes_supported: string[];

  @ApiProperty({ type: [String] })
  bearer_methods_supported: string[];

  @ApiProperty()
  resource_name: string;

  @ApiProperty()
  resource_documentation: string;
}

/** RFC 9728: where clients (MCP clients first) learn that kb protects its API with itself. */
@ApiTags('oauth')
@Public()
@Controller('.well-known')
export class WellKnownController {
  constructor(private readonly server: OAuthServer) {}

  private metadata(req: Request, path: string): ProtectedResourceMetadata {
    if (!this.server.config.enabled)
      throw new NotFoundProblem('route', 'OAuth is turned off here (OAUTH_ENABLED=false).');
    const base = this.server.base(req);
    return {
      resource: `${base}${path}`,
      authorization_servers: [base],
      scopes_supported: [...OAUTH_SCOPE_NAMES],
      bearer_methods_supported: ['header'],
      resource_name: 'kb',
      resource_documentation: `${base}/api/docs`,
    };
  }

  @Get('oauth-protected-resource')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Protected resource metadata (RFC 9728) of the site' })
  @ApiResult(ProtectedResourceMetadata)
  getProtectedResourceMetadata(@Req() req: Request): ProtectedResourceMetadata {
    return this.metadata(req, '/');
  }

  @Get('oauth-protected-resource/mcp')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Protected resource metadata (RFC 9728) of /mcp' })
  @ApiResult(ProtectedResourceMetadata)
  getMcpResourceMetadata(@Req() req: Request): ProtectedResourceMetadata {
    return this.metadata(req, '/mcp');
  }
}
