import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../src/common/http/openapi';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The console's API types are generated from kb's own OpenAPI document, so the console cannot
 * drift from the API: this fails when the committed document or the types generated from it
 * are stale. `npm run api:types` (UPDATE_API_TYPES=1) rewrites both.
 */
const root = join(__dirname, '..', '..');
const documentFile = join(root, 'console', 'src', 'api', 'openapi.json');
const update = process.env.UPDATE_API_TYPES === '1';

describe('console API types', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('openapi.json is the document the app describes', () => {
    const document = JSON.stringify(buildOpenApiDocument(t.app), null, 2) + '\n';
    if (update) writeFileSync(documentFile, document);
    const committed = existsSync(documentFile) ? readFileSync(documentFile, 'utf8') : '';
    expect({ stale: committed !== document, fix: 'npm run api:types' }).toEqual({
      stale: false,
      fix: 'npm run api:types',
    });
  });

  it('schema.d.ts is generated from openapi.json', () => {
    const args = [join(root, 'scripts', 'api-types.js'), ...(update ? [] : ['--check'])];
    const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
