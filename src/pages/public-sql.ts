/**
 * What pages lends to SQL written outside it, pure so that worker threads and migrations load
 * it without Nest: how the search index's grams are made (the SearchGrams migration fills the
 * index with the same function the store writes it with). Its Nest surface is public-api.ts.
 */
export { gramsOf } from './model/search/search-grams';
export type { GramOptions } from './model/search/search-grams';
export {
  attachmentTextSql,
  claimAttachmentText,
  markAttachmentText,
  sweepAttachmentTexts,
  writeAttachmentText,
} from './store/search/attachment-search';
export type { AttachmentTextStatus } from './store/search/attachment-search';
