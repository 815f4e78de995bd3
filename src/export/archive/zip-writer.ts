import type { Archiver, ArchiverOptions } from 'archiver';

/**
 * archiver 7 exports a factory function; the installed @types/archiver describes version 8's
 * classes. This is the one typed entry point to the factory.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const create = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

/** A streaming ZIP writer (deflate level 6). */
export function createZip(): Archiver {
  return create('zip', { zlib: { level: 6 } });
}
