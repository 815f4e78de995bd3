import { ConversionResult, SourceEntry } from '../import.types';
import { pacer } from '../pace';
import { dropExtension, repairEncodedSlug, slugFromPath } from '../slugs';
import { KbArchivePage, MANIFEST_PATH, readKbArchive } from './kb-archive';
import { jsonSafe, parseFrontMatter, splitFrontMatter, tagsFrom } from './front-matter';
import { cleanConfluencePage } from './markdown-cleanup';
import { tidyContent } from './markdown-title';
import { chooseTitle, readWikiJs1Header } from './titles';
import {
  dirOf,
  extensionOf,
  isLooseUpload,
  MARKDOWN_EXTENSIONS,
  SourceCollector,
  SourceOptions,
} from './source-context';

/** Documents of the other formats: uploaded loose with format=markdown they are a mistake. */
const FOREIGN = new Set(['.json', '.html', '.htm', '.txt']);

/**
 * Markdown files and archives of them: the first level-one heading is the title (front
 * matter `title` when there is none), the archive path gives the page path, front matter is
 * kept as properties (`tags` as tags).
 */
export async function convertMarkdown(
  entries: SourceEntry[],
  options: SourceOptions,
): Promise<ConversionResult> {
  const out = new SourceCollector(options);
  const tick = pacer();
  const archive = readKbArchive(entries);
  if (archive) {
    out.keepAssets = archive.media;
    out.siteVariables = archive.siteVariables;
    out.redirects = archive.redirects;
    out.templates = archive.templates;
    out.comments = new Map(
      [...archive.pages.values()].flatMap((page) =>
        page.comments ? [[page.slug, page.comments] as const] : [],
      ),
    );
  }
  for (const [done, entry] of entries.entries()) {
    await tick();
    options.onProgress?.(done);
    if (archive && entry.path === MANIFEST_PATH) continue;
    const ext = extensionOf(entry.path);
    if (!MARKDOWN_EXTENSIONS.has(ext)) {
      if (isLooseUpload(entry) && FOREIGN.has(ext)) {
        out.reject(
          entry.path,
          'wrong_format',
          `"${entry.path}" is not a Markdown file (.md, .markdown) or a ZIP of them.`,
        );
      } else {
        out.assets.set(entry.path, entry);
      }
      continue;
    }
    addMarkdownDocument(out, entry, archive?.pages.get(entry.path));
  }
  return out;
}

/** One Markdown file as a page (a kb archive's manifest entry restores slug, title, metadata). */
export function addMarkdownDocument(
  out: SourceCollector,
  entry: SourceEntry,
  restored?: KbArchivePage,
): void {
  const text = out.text(entry);
  if (text === undefined) return;
  const cleanConfluence = out.options.cleanConfluence === true;
  const doc = readMarkdownDocument(text, cleanConfluence);
  if (doc.title === undefined) {
    out.reject(
      entry.path,
      'missing_title',
      `"${entry.path}" has no level-one heading ("# Title").`,
    );
    return;
  }
  const { title: _t, tags, ...properties } = doc.meta;
  const path = dropExtension(entry.path);
  const slug = slugFromPath(path);
  out.add({
    sourcePath: entry.path,
    slug: restored ? restored.slug : slug && repairEncodedSlug(slug, doc.title),
    title: restored?.title || doc.title,
    metadata: restored?.metadata,
    summary: restored?.summary,
    content: tidyContent(doc.body),
    tags: tagsFrom(tags),
    properties: Object.keys(properties).length
      ? (jsonSafe(properties) as Record<string, unknown>)
      : undefined,
    baseDir: dirOf(entry.path),
    refKeys: [entry.path, path],
    ...(cleanConfluence && !restored
      ? { confluenceTitle: doc.confluenceTitle ? ('certain' as const) : ('possible' as const) }
      : {}),
  });
}

export interface MarkdownDocument {
  title?: string;
  body: string;
  /** Front matter, plus `description` from a Wiki.js 1 `<!-- SUBTITLE: … -->`. */
  meta: Record<string, unknown>;
  /** The clean-up found Confluence's title element or page header (the title has the space name). */
  confluenceTitle?: boolean;
}

/**
 * Title, body and metadata of one Markdown file: Wiki.js 1 `<!-- TITLE/SUBTITLE -->`
 * comments or YAML front matter, then the title rule of chooseTitle; Confluence page chrome
 * removed first when asked.
 */
export function readMarkdownDocument(
  text: string,
  cleanConfluence: boolean,
  lenientFrontMatter = false,
): MarkdownDocument {
  const wiki1 = readWikiJs1Header(text);
  const { raw, body } = splitFrontMatter(wiki1.body);
  const meta = raw !== undefined ? parseFrontMatter(raw, lenientFrontMatter) : {};
  if (wiki1.subtitle && meta.description === undefined) meta.description = wiki1.subtitle;
  const cleaned = cleanConfluence ? cleanConfluencePage(body) : undefined;
  const chosen = chooseTitle(wiki1.title ?? meta.title, cleaned?.markdown ?? body);
  return {
    title: chosen.title,
    body: chosen.body,
    meta,
    confluenceTitle: cleaned?.confluenceTitle,
  };
}
