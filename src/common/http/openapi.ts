import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { listRoutes } from './route-inventory';

/** Normalises `:id`, `*slug`, `{id}` and `{slug}` so Nest and OpenAPI paths can be compared. */
function pathKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.replace(/\{[^}]+\}|:[A-Za-z0-9_]+|\*[A-Za-z0-9_]*/g, '{}')}`;
}

/**
 * The OpenAPI document, with each operation's `security` and `x-kb-roles` taken from the same
 * route policies the guard enforces, so the description cannot drift from the behaviour.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('kb')
    .setDescription(
      'A knowledge base: Markdown pages, revisions, search, media, notifications, import and export. ' +
        'Errors are RFC 9457 problem documents (application/problem+json) with a stable `code`; ' +
        'field problems (422) list `errors: [{field, code, message}]`. Lists answer ' +
        '`{items, nextCursor}` and take `limit` and `cursor`.',
    )
    .setVersion('1')
    .addCookieAuth('kb_session', { type: 'apiKey', in: 'cookie', name: 'kb_session' }, 'session')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Personal access token (kb_pat_...)' },
      'bearer',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  declareWildcardParameters(document);
  const policies = new Map(listRoutes(app).map((r) => [pathKey(r.method, r.path), r]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(
      item as Record<string, Record<string, unknown>>,
    )) {
      const policy = policies.get(pathKey(method, path));
      if (!policy || typeof operation !== 'object') continue;
      operation.security =
        policy.auth === 'public'
          ? []
          : policy.auth === 'session'
            ? [{ session: [] }]
            : policy.auth === 'bearer'
              ? [{ bearer: [] }]
              : [{ session: [] }, { bearer: [] }];
      operation['x-kb-roles'] = policy.roles;
    }
  }
  return document;
}

export function mountOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'api/docs/json',
    yamlDocumentUrl: 'api/docs/yaml',
  });
}

/**
 * Nest declares no parameter for its wildcard routes (`*slug`, `*key`), which OpenAPI shows as
 * `{slug}`: declare each missing path parameter, noting that it spans several segments.
 */
function declareWildcardParameters(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const operation of Object.values(item as Record<string, { parameters?: unknown[] }>)) {
      if (typeof operation !== 'object' || operation === null) continue;
      const parameters = (operation.parameters ??= []) as { name: string; in: string }[];
      for (const name of names) {
        if (parameters.some((p) => p.in === 'path' && p.name === name)) continue;
        parameters.push({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
          description: `${name === 'key' ? 'the draft key' : 'the page slug'}; may contain slashes (a/b/c)`,
        } as { name: string; in: string });
      }
    }
  }
}
