/** The import's slicing is the common pacer (common/workers/pacer.ts). */
export { pacer } from '../common/workers/pacer';
