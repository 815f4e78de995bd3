import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { IS_PUBLIC_KEY, ROUTE_POLICY_KEY, RoutePolicyOptions } from '../common/auth/route-policy';
import {
  requirePermission,
  TOKEN_VERB_KEY,
  WHOLE_WIKI_KEY,
  type TokenPermission,
} from '../common/auth/token-scope';
import { InjectConfig } from '../common/config/app-config';
import type { HttpConfig } from '../common/config/http-config';
import { isLocalRequest } from '../common/http/local-request';
import { isSameOriginRequest, isUnsafeMethod } from '../common/http/origin';
import type { OAuthConfig } from '../common/config/oauth-config';
import { ForbiddenProblem, Problem, UnauthorizedProblem } from '../common/problems/problem';
import { publicBase, resourceMetadataUrl } from './oauth/oauth-base';
import { CredentialsService } from './credentials.service';
import { SESSION_COOKIE } from './sessions.service';

export type AuthedRequest = Request & { user?: AuthUser };

/**
 * The one global guard. Deny by default: a route without metadata needs an authenticated
 * caller with any credential; `@Public()` opens it; `@RoutePolicy()` narrows the scheme and roles.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
    @InjectConfig('oauth') private readonly oauthConfig: OAuthConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const policy =
      this.reflector.getAllAndOverride<RoutePolicyOptions>(ROUTE_POLICY_KEY, targets) ?? {};
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    if (policy.allowLocal && isLocalRequest(request)) return true;

    const user = await this.authenticate(request).catch((error: unknown) => {
      throw this.withResourceHint(request, error);
    });
    const scheme = policy.auth ?? 'any';
    if (scheme === 'session' && user.via !== 'session') {
      throw new UnauthorizedProblem(
        'session_required',
        'This route accepts only a browser session, not a bearer token.',
      );
    }
    if (scheme === 'bearer' && user.via !== 'bearer') {
      throw new UnauthorizedProblem('bearer_required', 'This route accepts only a bearer token.');
    }
    if (
      user.via === 'session' &&
      isUnsafeMethod(request.method) &&
      !isSameOriginRequest(request, this.httpConfig.allowedOrigins)
    ) {
      throw new ForbiddenProblem(
        'cross_origin_refused',
        'Cookie-authenticated changes must come from this site.',
      );
    }
    if (policy.roles && !policy.roles.includes(user.role)) {
      throw new ForbiddenProblem(
        'insufficient_role',
        `This needs the role ${policy.roles.join(' or ')}.`,
      );
    }
    if (user.paths && this.reflector.getAllAndOverride<boolean>(WHOLE_WIKI_KEY, targets)) {
      throw new ForbiddenProblem(
        'whole_wiki_route',
        'This route reaches every page; a credential limited to paths may not use it.',
      );
    }
    if (user.permissions) {
      // A verb-limited credential: GET/HEAD read; other methods write, or what the route says.
      const changing =
        this.reflector.getAllAndOverride<TokenPermission | 'call'>(TOKEN_VERB_KEY, targets) ??
        'write';
      const verb = changing === 'call' || isUnsafeMethod(request.method) ? changing : 'read';
      if (verb !== 'call') requirePermission(user, verb);
    }
    request.user = user;
    return true;
  }

  /**
   * A 401 from /mcp names the protected resource metadata (RFC 9728 §5.1), where an MCP client
   * discovers kb's authorization server and starts OAuth.
   */
  private withResourceHint(request: Request, error: unknown): unknown {
    if (!(error instanceof UnauthorizedProblem) || !this.oauthConfig.enabled) return error;
    if (request.path !== '/mcp' && !request.path.startsWith('/mcp/')) return error;
    const url = resourceMetadataUrl(publicBase(request, this.httpConfig.publicUrl));
    return new Problem(error.status, error.code, error.detail, error.extensions, {
      'WWW-Authenticate': `Bearer realm="kb", resource_metadata="${url}"`,
    });
  }

  private async authenticate(request: Request): Promise<AuthUser> {
    const header = request.get('authorization');
    if (header !== undefined) {
      // A request that presents a token is judged by it alone, even if it also carries a cookie.
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      const user = match ? await this.credentials.fromBearer(match[1]) : null;
      if (!user)
        throw new UnauthorizedProblem(
          'invalid_token',
          'The bearer token is unknown, revoked or expired.',
        );
      return user;
    }
    const cookie = (request.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (cookie) {
      const user = await this.credentials.fromSession(cookie);
      if (!user)
        throw new UnauthorizedProblem('session_expired', 'The session has ended; sign in again.');
      return user;
    }
    throw new UnauthorizedProblem();
  }
}
