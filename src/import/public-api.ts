/**
 * What other modules may use of import (docs/CONTRACTS.md): the CLI's `kb push --propose` reads
 * a Markdown folder into slugs and contents exactly as an import does. Pure functions only, so
 * the CLI loads no Nest module.
 */
export { dropExtension, joinSlug, slugFromPath } from './slugs';
export { readMarkdownDocument } from './sources/markdown-source';
export { tidyContent } from './sources/markdown-title';
