import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running `entry` (a module path). Built code (dist/) runs the .js file as it
 * is; source run through SWC (the tests, `node -e` entries) has no compiled file, so the worker
 * first installs the same SWC require hook the parent uses.
 */
export function startWorker(entry: string, options: WorkerOptions): Worker {
  if (!entry.endsWith('.ts')) return new Worker(entry, options);
  const swcrc = join(__dirname, '..', '..', '..', '.swcrc');
  const swcOptions = JSON.parse(readFileSync(swcrc, 'utf8')) as Record<string, unknown>;
  delete swcOptions.$schema;
  const program = `
    const fs = require('node:fs');
    const swc = require('@swc/core');
    const options = ${JSON.stringify({ ...swcOptions, sourceMaps: false })};
    require.extensions['.ts'] = (module, filename) => {
      const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
      module._compile(code, filename);
    };
    require(${JSON.stringify(entry)});`;
  return new Worker(program, { ...options, eval: true });
}
