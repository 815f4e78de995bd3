import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId: string;
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}
interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
    securitySchemes: Record<string, Json>;
  };
}

const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');
const ROOT = join(__dirname, '..', '..');

/** Runs a Node script on the document, saved to a temporary file. */
function runOnDocument(document: object, args: (file: string) => string[], env = {}) {
  const file = join(tmpdir(), `kb-openapi-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(document));
  try {
    return spawnSync(process.execPath, args(file), {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ...env },
    });
  } finally {
    rmSync(file, { force: true });
  }
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.http().get('/api/docs/json').expect(200)).body as Document;
  });
  afterAll(() => t.close());

  it('passes `redocly lint` (recommended rules) with no error and no warning', () => {
    const run = runOnDocument(document, (file) => [REDOCLY, 'lint', file, '--format=json'], {
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    const report = JSON.parse(run.stdout) as {
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map(
      (p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`,
    );
    expect(problems).toEqual([]);
    expect(run.status).toBe(0);
  });

  it('is what the committed client types were generated from (npm run openapi:types)', () => {
    const run = runOnDocument(document, (file) => ['scripts/openapi-types.js', '--from', file]);
    expect(run.stderr).toBe('');
    // A difference: the API changed; run `npm run openapi:types` and review the diff.
    expect(readFileSync(join(ROOT, 'console/src/api/kb-api.d.ts'), 'utf8')).toBe(run.stdout);
  });

  it('names its server, and describes bearer tokens as opaque', () => {
    expect(document.servers?.length).toBeGreaterThan(0);
    expect(document.components.securitySchemes.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('not a JWT'),
    });
  });

  it('describes every operation: success body, problem errors, every path parameter', () => {
    const problems = new Set([
      '#/components/schemas/Problem',
      '#/components/schemas/ValidationProblem',
    ]);
    for (const { path, method, operation } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses);
      // Every 4xx and the default answer a problem document; a 422 lists its fields.
      for (const status of statuses.filter((s) => /^[45]|default/.test(s))) {
        const ref = String(operation.responses[status].$ref).split('/').pop()!;
        const schema = document.components.responses[ref]?.content?.['application/problem+json'];
        expect({ where, status, schema: schema?.schema.$ref }).toEqual({
          where,
          status,
          schema: status === '422' ? '#/components/schemas/ValidationProblem' : expect.any(String),
        });
        expect(problems.has(schema!.schema.$ref)).toBe(true);
      }
      expect({ where, has4xx: statuses.some((s) => s.startsWith('4')) }).toEqual({
        where,
        has4xx: true,
      });
      // A success answer with a body says what the body is.
      for (const status of statuses.filter((s) => /^2/.test(s) && s !== '204')) {
        expect({
          where,
          status,
          content: Object.keys(operation.responses[status].content ?? {}),
        }).toEqual({ where, status, content: expect.arrayContaining([expect.any(String)]) });
      }
      const described = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect({ where, params: described.map((p) => p.name) }).toEqual({ where, params: templated });
    }
  });

  it('derives each operation’s errors from its route', () => {
    const statuses = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses);
    expect(statuses('/api/pages/{slug}', 'put')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '412',
      '413',
      '415',
      '422',
      '428',
      '429',
      'default',
    ]);
    expect(statuses('/api/pages/{slug}', 'get')).toEqual([
      '200',
      '304',
      '308',
      '400',
      '401',
      '404',
      '429',
      'default',
    ]);
    // Rate-limited answers carry the IETF draft's headers.
    expect(Object.keys(document.paths['/api/search'].get.responses['200'].headers ?? {})).toEqual([
      'RateLimit-Policy',
      'RateLimit',
    ]);
    expect(statuses('/auth/login', 'post')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '413',
      '415',
      '422',
      '429',
      'default',
    ]);
    expect(statuses('/export/pdf/{slug}', 'get')).toEqual([
      '200',
      '400',
      '401',
      '404',
      '502',
      '503',
      '504',
      'default',
    ]);
    expect(statuses('/healthz', 'get')).toEqual(['200', '400', 'default']);
  });

  it('answers 400 on every route for a body that is not JSON, as it says', async () => {
    const res = await t
      .http()
      .get('/healthz')
      .set('Content-Type', 'application/json')
      .send('{"not json')
      .expect(400);
    expect(res.body).toMatchObject({ status: 400, code: 'invalid_json' });
  });

  it('describes a slug as one multi-segment parameter that clients may percent-encode', () => {
    const slug = document.paths['/api/pages/{slug}'].get.parameters![0];
    expect(slug).toMatchObject({
      name: 'slug',
      in: 'path',
      required: true,
      allowReserved: true,
      'x-multi-segment': true,
      schema: { type: 'string', maxLength: 255 },
    });
    expect(document.paths['/api/pages/{slug}/raw'].get.responses['200'].content).toEqual({
      'text/markdown': { schema: { type: 'string' } },
    });
  });

  it('describes the multipart bodies of uploads and import', () => {
    for (const path of ['/api/images', '/api/attachments']) {
      expect(document.paths[path].post.requestBody!.content['multipart/form-data'].schema).toEqual({
        type: 'object',
        required: ['file'],
        properties: { file: expect.objectContaining({ type: 'string', format: 'binary' }) },
      });
    }
    const form = document.paths['/api/import'].post.requestBody!.content['multipart/form-data'];
    expect(form.schema).toMatchObject({
      required: ['format', 'files'],
      properties: {
        format: { enum: ['markdown', 'wikijs', 'confluence'] },
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
      },
    });
  });

  it('marks nullable members nullable', () => {
    const page = document.components.schemas.PageResponse.properties as Record<string, Json>;
    for (const member of ['icon', 'language', 'owner', 'nextReviewAt', 'deprecatedTarget'])
      expect({ member, nullable: page[member].nullable }).toEqual({ member, nullable: true });
    expect(page.title.nullable).toBeUndefined();
  });
});
