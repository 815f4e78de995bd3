import { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import {
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { inspectRoutes, RouteDetail } from '../http/route-inventory';
import { readsJsonBody } from '../http/json-body';
import { API_PROBLEMS_KEY, API_RESULT_KEY, ApiResultMetadata } from './api-result.decorator';
import {
  errorResponseComponents,
  errorResponseRefs,
  errorStatuses,
  PROBLEM_SCHEMAS,
} from './error-responses';
import { OPEN_SCHEMAS } from './open-schema.decorator';
import { pathParameters } from './path-parameters';
import { headerRefs, RESPONSE_HEADERS } from './response-headers';
import { API_ALIAS_KEY, ApiAliasMetadata } from './api-alias.decorator';

const DESCRIPTION = [
  'A knowledge base: Markdown pages, revisions, search, media, notifications, import and export.',
  '',
  '**Credentials.** A browser session (`POST /auth/login` sets the `kb_session` cookie) or a personal access token (`Authorization: Bearer kb_pat_...`, an opaque secret made with `POST /api/tokens`). ' +
    "Each operation's `security` says which it accepts and `x-kb-roles` which roles may call it.",
  '',
  '**Errors** are RFC 9457 problem documents (`application/problem+json`) with a stable `code`; ' +
    'field problems (422) list every bad field under `errors: [{field, code, message}]`.',
  '',
  '**Lists** answer `{items, nextCursor}` and take `limit` (1-100) and `cursor` (the previous `nextCursor`).',
  '',
  '**Page slugs** span several path segments (`guides/getting-started`): send them with their slashes, or percent-encoded (`guides%2Fgetting-started`, what generated clients send).',
  '',
  '**Updates** name the revision they are based on: `If-Match` with the ETag of a read, or `baseRevision` in the body (428 without; 412 / 409 when stale).',
].join('\n');

/** Normalises `:id`, `*slug` and `{id}` so Nest and OpenAPI paths can be compared. */
function pathKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.replace(/\{[^}]+\}|:[A-Za-z0-9_]+|\*[A-Za-z0-9_]*/g, '{}')}`;
}

const REQUEST_HEADERS: Record<string, ParameterObject> = {
  'if-match': {
    name: 'If-Match',
    in: 'header',
    description:
      'The ETag of the revision this change is based on (`"3"`); 412 when the page has moved on.',
    schema: { type: 'string', example: '"3"' },
  },
  'if-none-match': {
    name: 'If-None-Match',
    in: 'header',
    description: 'The ETag you hold: 304 with no body while it is still current.',
    schema: { type: 'string', example: '"3"' },
  },
};

interface HandlerParam {
  type: number;
  data?: unknown;
}

function handlerParams(route: RouteDetail): HandlerParam[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handlerFn.name) ??
    {}) as Record<string, { data?: unknown }>;
  return Object.entries(args).map(([key, value]) => ({
    type: Number(key.split(':')[0]),
    data: value.data,
  }));
}

function headerParameters(params: HandlerParam[]): ParameterObject[] {
  return params
    .filter((p) => p.type === RouteParamtypes.HEADERS && typeof p.data === 'string')
    .map((p) => REQUEST_HEADERS[(p.data as string).toLowerCase()])
    .filter((p): p is ParameterObject => p !== undefined);
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'Done; no body.',
  '206': 'Part of the content (`Range`).',
  '304': 'Not modified: the ETag in `If-None-Match` is still current; no body.',
  '308': 'Moved: an old slug of a moved page; `Location` is its address now.',
};

function successResponses(
  generated: OperationObject['responses'],
  result: ApiResultMetadata | undefined,
): Record<string, ResponseObject> {
  const redirect = Object.keys(generated).find((s) => s.startsWith('3'));
  // A browser navigation (single sign-on) answers a redirect, described by its @ApiResponse.
  if (!result && redirect && !Object.keys(generated).some((s) => s.startsWith('2'))) {
    return { [redirect]: generated[redirect] as ResponseObject };
  }
  const status = Object.keys(generated).find((s) => s.startsWith('2')) ?? '200';
  if (!result) return { [status]: { description: STATUS_TEXT[status] ?? 'OK' } };
  // JSON of `type` and/or the other media types (a report as JSON or as JUnit XML).
  const content = {
    ...(result.type
      ? { 'application/json': { schema: { $ref: getSchemaPath(result.type) } } }
      : {}),
    ...(result.schema ? { 'application/json': { schema: result.schema } } : {}),
    ...Object.fromEntries(
      Object.entries(result.content ?? {}).map(([type, kind]) => [
        type,
        { schema: kind === 'binary' ? { type: 'string', format: 'binary' } : { type: 'string' } },
      ]),
    ),
  };
  const response: ResponseObject = {
    description: result.description ?? STATUS_TEXT[status] ?? 'OK',
    ...(result.headers ? { headers: headerRefs(result.headers) } : {}),
    content,
  };
  const responses: Record<string, ResponseObject> = { [status]: response };
  for (const also of result.alsoStatus ?? [])
    responses[String(also)] = { ...response, description: STATUS_TEXT[String(also)] ?? 'OK' };
  if (result.other)
    responses[String(result.other.status)] = {
      description: result.other.description,
      ...(result.other.headers ? { headers: headerRefs(result.other.headers) } : {}),
      content: { 'application/json': { schema: { $ref: getSchemaPath(result.other.type) } } },
    };
  if (result.notModified)
    responses['304'] = { description: STATUS_TEXT['304'], headers: headerRefs(['ETag']) };
  if (result.moved)
    responses['308'] = { description: STATUS_TEXT['308'], headers: headerRefs(['Location']) };
  return responses;
}

function security(route: RouteDetail): Record<string, string[]>[] {
  switch (route.auth) {
    case 'public':
      return [];
    case 'session':
      return [{ session: [] }];
    case 'bearer':
      return [{ bearer: [] }];
    default:
      return [{ session: [] }, { bearer: [] }];
  }
}

/** Completes one operation from the route that serves it: the facts the app enforces. */
function describeOperation(operation: OperationObject, route: RouteDetail): void {
  const handler = route.handlerFn;
  const params = handlerParams(route);
  const result = Reflect.getMetadata(API_RESULT_KEY, handler) as ApiResultMetadata | undefined;
  const declared = (Reflect.getMetadata(API_PROBLEMS_KEY, handler) as number[] | undefined) ?? [];
  const others = ((operation.parameters ?? []) as ParameterObject[]).filter((p) => p.in !== 'path');
  const headers = headerParameters(params);
  const pathParams = pathParameters(route.path);
  operation.parameters = [...pathParams, ...others, ...headers];
  operation.security = security(route);
  Object.assign(operation, {
    'x-kb-roles': route.roles,
    'x-kb-route': `${route.method} ${route.path}`,
  });
  const statuses = errorStatuses({
    method: route.method,
    auth: route.auth,
    restrictedRoles: Array.isArray(route.roles),
    jsonBody: readsJsonBody(route.controller, handler),
    multipart:
      operation.requestBody !== undefined && 'content' in operation.requestBody
        ? 'multipart/form-data' in operation.requestBody.content
        : false,
    query: others.some((p) => p.in === 'query'),
    pathParams: pathParams.length > 0,
    ifMatch: headers.some((h) => h.name === 'If-Match'),
    declared,
    rateLimited: rateLimited(route),
  });
  const success = successResponses(operation.responses, result);
  if (rateLimited(route)) {
    for (const response of Object.values(success))
      response.headers = { ...response.headers, ...headerRefs(['RateLimit-Policy', 'RateLimit']) };
  }
  operation.responses = { ...success, ...errorResponseRefs(statuses) };
}

/** Authenticated /api routes count against the caller's rate limits (RateLimitGuard). */
function rateLimited(route: RouteDetail): boolean {
  return route.auth !== 'public' && route.path.startsWith('/api/');
}

/** Another path a handler serves (`/api/pages/{slug}/raw`), described as its own operation. */
function aliasOperation(
  operation: OperationObject,
  alias: ApiAliasMetadata,
): [string, OperationObject] {
  const { path, operationId, summary, description, result } = alias;
  return [
    path,
    {
      ...operation,
      operationId,
      summary,
      ...(description ? { description } : {}),
      responses: {
        ...successResponses({ '200': { description: '' } }, result),
        ...Object.fromEntries(
          Object.entries(operation.responses).filter(([s]) => !/^[23]/.test(s)),
        ),
      },
    },
  ];
}

/** Swagger wraps a lone `$ref` in `allOf` (for siblings such as `nullable`); unwrap bare ones. */
function unwrapLoneAllOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapLoneAllOf);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, unwrapLoneAllOf(value)]);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && Array.isArray(object.allOf) && object.allOf.length === 1)
    return object.allOf[0];
  // A nullable reference to a schema that is not a class (Problem): swagger drops its `type`.
  if (object.nullable === true && Array.isArray(object.allOf) && object.type === undefined)
    return { type: 'object', ...object };
  return object;
}

/**
 * The OpenAPI document. Swagger's scan gives the paths, request DTOs and query parameters;
 * each operation is then completed from the route that serves it: `security` and `x-kb-roles`
 * from the route policy the guard enforces, error responses from what the route reads (see
 * error-responses.ts), the success body from @ApiResult, path parameters from the route path.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('kb')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This kb instance: the origin that serves this document.')
    .addSecurity('session', {
      type: 'apiKey',
      in: 'cookie',
      name: 'kb_session',
      description: 'The browser session cookie set by `POST /auth/login`.',
    })
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description:
        'A personal access token (`kb_pat_...`): an opaque secret, not a JWT. Made with `POST /api/tokens`, shown once.',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  const routes = new Map(inspectRoutes(app).map((r) => [pathKey(r.method, r.path), r]));
  const aliases: [string, OperationObject][] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>)) {
      const route = routes.get(pathKey(method, path));
      if (!route) throw new Error(`No route serves ${method.toUpperCase()} ${path}`);
      describeOperation(operation, route);
      const alias = Reflect.getMetadata(API_ALIAS_KEY, route.handlerFn) as
        ApiAliasMetadata | undefined;
      if (alias) aliases.push(aliasOperation(operation, alias));
    }
  }
  for (const [path, operation] of aliases) document.paths[path] = { get: operation };
  const components = document.components ?? {};
  const schemas = unwrapLoneAllOf({ ...components.schemas, ...PROBLEM_SCHEMAS }) as Record<
    string,
    SchemaObject
  >;
  for (const name of OPEN_SCHEMAS) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schema.additionalProperties = true;
  }
  document.components = {
    ...components,
    schemas,
    responses: errorResponseComponents(),
    headers: RESPONSE_HEADERS,
  };
  return document;
}

export function mountOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'api/docs/json',
    yamlDocumentUrl: 'api/docs/yaml',
  });
}
