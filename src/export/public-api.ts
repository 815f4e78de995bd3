/**
 * What other modules may use of export (docs/CONTRACTS.md): pure helpers only, so the `kb`
 * client can load them without Nest. `npm run lint` refuses an import of any other file of
 * export from outside it.
 */
export { createZip } from './archive/zip-writer';
export { printDocument } from './print/print-template';
