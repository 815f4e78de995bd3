/**
 * What the server's HTML → Markdown conversion takes from the pages feature (through its
 * public-api), without the rest of that module's server code (vite.config.mts).
 */
export {
  confluenceLanguage,
  fenceLanguage,
} from '../../../../../src/pages/rendering/code-language';
export { EMPHASIS_TAGS, TABLE_TAGS } from '../../../../../src/pages/rendering/html-tags';
