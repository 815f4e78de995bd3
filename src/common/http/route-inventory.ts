import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import {
  AuthScheme,
  IS_PUBLIC_KEY,
  ROUTE_POLICY_KEY,
  RoutePolicyOptions,
} from '../auth/route-policy';

export interface RouteInfo {
  method: string;
  path: string;
  handler: string;
  auth: AuthScheme | 'public';
  roles: string[] | 'authenticated' | 'anyone';
}

function joinPath(...parts: (string | undefined)[]): string {
  const joined = parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/');
  return '/' + joined;
}

/** A route with the controller class and handler function that serve it. */
export interface RouteDetail extends RouteInfo {
  controller: Type<unknown>;
  handlerFn: (...args: unknown[]) => unknown;
}

/** Every route the app serves with the policy the global guard applies to it. */
export function listRoutes(app: INestApplication): RouteInfo[] {
  return inspectRoutes(app).map(({ method, path, handler, auth, roles }) => ({
    method,
    path,
    handler,
    auth,
    roles,
  }));
}

/** listRoutes() with the controller and handler of each route, for descriptions built from them. */
export function inspectRoutes(app: INestApplication): RouteDetail[] {
  const container = app.get(ModulesContainer);
  const reflector = app.get(Reflector);
  const scanner = new MetadataScanner();
  const routes: RouteDetail[] = [];
  for (const module of container.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      // From the class, not the instance: request-scoped controllers have no instance here.
      if (!controller) continue;
      const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
      const prototype = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method =
          RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const targets = [handler, controller];
        const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets) ?? false;
        const policy =
          reflector.getAllAndOverride<RoutePolicyOptions>(ROUTE_POLICY_KEY, targets) ?? {};
        for (const p of Array.isArray(path) ? path : [path]) {
          routes.push({
            method,
            path: joinPath(prefix, p),
            handler: `${controller.name}.${name}`,
            auth: isPublic ? 'public' : (policy.auth ?? 'any'),
            roles: isPublic ? 'anyone' : policy.roles ? [...policy.roles] : 'authenticated',
            controller,
            handlerFn: handler,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
