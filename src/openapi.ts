import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from './app.factory';
import { loadConfig } from './common/config/app-config';
import { buildOpenApiDocument } from './common/openapi/openapi-document';

/**
 * `npm run openapi:json -- --out openapi.json`: writes the OpenAPI document that
 * /api/docs/json serves, without listening on a port. The app boots on a throw-away SQLite
 * database with no settings from the environment, so the document is the same everywhere.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', short: 'o' } } });
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-openapi-'));
  try {
    const app = await createApp(
      loadConfig({ KB_DATA_DIR: dataDir, DB_TYPE: 'sqlite', LOG_LEVEL: 'error' }),
    );
    const json = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
    await app.close();
    if (values.out && values.out !== '-') writeFileSync(values.out, json);
    else process.stdout.write(json);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
