import { ConversionResult, SourceEntry } from '../import.types';
import { dropExtension, slugFromPath } from '../slugs';
import { MANIFEST_PATH, readKbArchive } from './kb-archive';
import { jsonSafe, parseFrontMatter, splitFrontMatter, tagsFrom } from './front-matter';
import { extractTitle, tidyContent } from './markdown-title';
import {
  dirOf,
  extensionOf,
  isLooseUpload,
  SourceCollector,
  SourceOptions,
} from './source-context';

const MARKDOWN = new Set(['.md', '.markdown']);
/** Documents of the other formats: uploaded loose with format=markdown they are a mistake. */
const FOREIGN = new Set(['.json', '.html', '.htm', '.txt']);

/**
 * Markdown files and archives of them: the first level-one heading is the title (front
 * matter `title` when there is none), the archive path gives the page path, front matter is
 * kept as properties (`tags` as tags).
 */
export function convertMarkdown(entries: SourceEntry[], options: SourceOptions): ConversionResult {
  const out = new SourceCollector(options);
  const archive = readKbArchive(entries);
  if (archive) {
    out.keepAssets = archive.media;
    out.siteVariables = archive.siteVariables;
  }
  for (const entry of entries) {
    if (archive && entry.path === MANIFEST_PATH) continue;
    const ext = extensionOf(entry.path);
    if (!MARKDOWN.has(ext)) {
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
    const text = out.text(entry);
    if (text === undefined) continue;
    const { raw, body } = splitFrontMatter(text);
    const meta = raw !== undefined ? parseFrontMatter(raw) : {};
    const { title, body: rest } = extractTitle(body);
    const fmTitle =
      typeof meta.title === 'string' || typeof meta.title === 'number'
        ? String(meta.title)
        : undefined;
    const finalTitle = title ?? fmTitle;
    if (finalTitle === undefined) {
      out.reject(
        entry.path,
        'missing_title',
        `"${entry.path}" has no level-one heading ("# Title").`,
      );
      continue;
    }
    const { title: _t, tags, ...properties } = meta;
    const path = dropExtension(entry.path);
    const restored = archive?.pages.get(entry.path);
    out.add({
      sourcePath: entry.path,
      slug: restored ? restored.slug : slugFromPath(path),
      title: restored?.title || finalTitle,
      metadata: restored?.metadata,
      content: tidyContent(rest),
      tags: tagsFrom(tags),
      properties: Object.keys(properties).length
        ? (jsonSafe(properties) as Record<string, unknown>)
        : undefined,
      baseDir: dirOf(entry.path),
      refKeys: [entry.path, path],
    });
  }
  return out;
}
