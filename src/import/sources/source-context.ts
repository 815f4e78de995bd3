import type { ArchiveComment } from '../../comments/public-api';
import { posix } from 'node:path';
import { ImportDocument, InvalidDocument, MacroUse, SourceEntry } from '../import.types';
import { decodeUtf8 } from '../source-tree';
import { joinSlug, slugProblem } from '../slugs';
import { normaliseCodeFences } from './markdown-cleanup';

export const MAX_TITLE_LENGTH = 255;

/** File extensions (lower case, with the dot) read as Markdown and as HTML documents. */
export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set(['.md', '.markdown']);
export const HTML_EXTENSIONS: ReadonlySet<string> = new Set(['.html', '.htm']);

export interface SourceOptions {
  prefix: string;
  pageMaxBytes: number;
  /** Remove Confluence page chrome from Confluence-converted Markdown (docs/import.md). */
  cleanConfluence?: boolean;
  /** Confluence XML export: blog posts are imported too (under `blog/`). */
  includeBlogPosts?: boolean;
  /** Confluence XML export: base URL that Jira macros link to. */
  jiraBaseUrl?: string;
  /** Called with the number of entries looked at so far (import progress). */
  onProgress?: (done: number) => void;
}

/** Collects documents, invalid files and assets for one converter, with the shared checks. */
export class SourceCollector {
  readonly documents: ImportDocument[] = [];
  readonly invalid: InvalidDocument[] = [];
  readonly assets = new Map<string, SourceEntry>();
  /** Why a file that could have been a page is only a file (reported when nothing uses it). */
  readonly notPages = new Map<string, string>();
  /** Confluence macros met, by name, with how each was converted. */
  readonly macros = new Map<string, MacroUse>();
  keepAssets?: Map<string, 'image' | 'attachment'>;
  siteVariables?: Record<string, string>;
  redirects?: { from: string; to: string }[];
  templates?: unknown[];
  comments?: Map<string, ArchiveComment[]>;
  private readonly slugs = new Map<string, string>();

  constructor(readonly options: SourceOptions) {}

  reject(path: string, code: string, message: string): void {
    this.invalid.push({ path, code, message });
  }

  /** UTF-8 text of an entry, or undefined after reporting it. */
  text(entry: SourceEntry, path = entry.path): string | undefined {
    const text = decodeUtf8(entry.data);
    if (text === undefined) this.reject(path, 'invalid_encoding', `"${path}" is not UTF-8 text.`);
    return text;
  }

  /** Validates and records one page; `slug` is without the prefix. */
  add(doc: Omit<ImportDocument, 'slug'> & { slug: string | undefined }): void {
    const path = doc.sourcePath;
    if (doc.slug === undefined || doc.slug === '') {
      return this.reject(
        path,
        'invalid_path',
        `"${path}" has a path that gives no usable page path.`,
      );
    }
    const slug = joinSlug(this.options.prefix, doc.slug);
    const problem = slugProblem(slug);
    if (problem) return this.reject(path, 'invalid_path', `"${path}" ${problem}.`);
    const title = doc.title.replace(/\s+/g, ' ').trim();
    // A kb archive is restored as written; other sources get their fences' languages cleaned.
    const content = doc.metadata ? doc.content : normaliseCodeFences(doc.content);
    if (title === '') return this.reject(path, 'missing_title', `"${path}" has an empty title.`);
    if (title.length > MAX_TITLE_LENGTH)
      return this.reject(
        path,
        'title_too_long',
        `"${path}" has a title longer than ${MAX_TITLE_LENGTH} characters.`,
      );
    if (Buffer.byteLength(content) > this.options.pageMaxBytes) {
      return this.reject(
        path,
        'content_too_large',
        `"${path}" is larger than a page may be (${this.options.pageMaxBytes} bytes).`,
      );
    }
    const taken = this.slugs.get(slug);
    if (taken !== undefined) {
      return this.reject(
        path,
        'duplicate_path',
        `"${path}" gives the page path "${slug}", already given by "${taken}".`,
      );
    }
    this.slugs.set(slug, path);
    this.documents.push({ ...doc, slug, title, content });
  }
}

export function extensionOf(path: string): string {
  return posix.extname(path).toLowerCase();
}

export function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

/** True for a file uploaded as it is (not taken out of an archive). */
export function isLooseUpload(entry: SourceEntry): boolean {
  return entry.path === entry.upload;
}
