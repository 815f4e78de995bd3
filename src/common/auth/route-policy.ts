import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import type { Request } from 'express';
import type { AuthUser } from './auth-user';
import type { Role } from './roles';

export type AuthScheme = 'session' | 'bearer' | 'any';

export interface RoutePolicyOptions {
  /** Which credentials the route accepts; default `any` (session cookie or bearer token). */
  auth?: AuthScheme;
  /** Roles allowed; default: every authenticated user. */
  roles?: Role[];
  /**
   * Also open to anonymous requests from this machine (loopback, not forwarded by a proxy):
   * operations endpoints a local agent scrapes (`GET /metrics`).
   */
  allowLocal?: boolean;
}

export const IS_PUBLIC_KEY = 'kb:isPublic';
export const ROUTE_POLICY_KEY = 'kb:routePolicy';

/** Opens a route to anonymous callers. Everything else is denied by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);

/** Narrows who may call a route. Read handler-first, then class. */
export const RoutePolicy = (policy: RoutePolicyOptions): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ROUTE_POLICY_KEY, policy));

/** Shorthands for the common policies. */
export const AdminOnly = (auth: AuthScheme = 'any') => RoutePolicy({ auth, roles: ['admin'] });
export const Editors = (auth: AuthScheme = 'any') =>
  RoutePolicy({ auth, roles: ['admin', 'editor'] });
export const SessionOnly = (roles?: Role[]) => RoutePolicy({ auth: 'session', roles });

/** The caller resolved by the global guard; only on non-public routes. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser => {
    const request = ctx.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    if (!request.user) throw new Error('CurrentUser used on a route without an authenticated user');
    return request.user;
  },
);
