import { posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import { isMediaPath } from '../common/text/media-urls';
import { codeFenceTracker, plainTitle, resolveInternalHref, safeDecode } from '../pages/public-api';
import { ImportDocument, SourceEntry } from './import.types';
import { pacer } from './pace';
import { ReferenceKind, rewriteReferences } from '../pages/public-api';
import { dropExtension, slugFromPath, undecodedSlug } from './slugs';

export type MediaKindOf = 'image' | 'attachment';

export type Resolution =
  | { type: 'keep' }
  | { type: 'page'; slug: string; suffix: string }
  /** A fragment of the page itself, written as the heading id it names. */
  | { type: 'fragment'; fragment: string }
  | { type: 'asset'; path: string; suffix: string; media: MediaKindOf }
  /** A root-relative target that matches no imported file: maybe a page that already exists. */
  | { type: 'missing'; existingSlug?: string };

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|svg|bmp|avif|ico|tiff?)$/i;
const PAGE_SUFFIXES = [
  '',
  '.md',
  '.markdown',
  '.html',
  '.htm',
  '/index.md',
  '/readme.md',
  '/README.md',
  '/index.html',
];
const LOCALE = /^[a-z]{2}(?:-[a-z]{2,4})?\//i;
/** Sites generated from Markdown (and Confluence-converted sets) link `page.html`. */
const WEB_PAGE = /\.html?$/i;

/**
 * Resolves the references of imported pages: to another page of the same import (by any of its
 * archive paths), to a file of the import (stored as image or attachment), or reports it.
 */
export class ReferenceIndex {
  private readonly pages = new Map<string, ImportDocument>();
  private readonly pagesLower = new Map<string, ImportDocument>();
  /** Pages by the slug of each archive path (decoded and as written); null when ambiguous. */
  private readonly pagesBySlug = new Map<string, ImportDocument | null>();
  private readonly assetsLower = new Map<string, string>();
  private readonly anchors = new Map<ImportDocument, Map<string, string>>();

  private constructor(private readonly assets: Map<string, SourceEntry>) {
    for (const path of assets.keys()) this.assetsLower.set(path.toLowerCase(), path);
  }

  /** The index of an import's pages and files, built in slices that yield to the event loop. */
  static async build(
    documents: ImportDocument[],
    assets: Map<string, SourceEntry>,
  ): Promise<ReferenceIndex> {
    const index = new ReferenceIndex(assets);
    const tick = pacer();
    for (const doc of documents) {
      await tick();
      index.add(doc);
    }
    return index;
  }

  private add(doc: ImportDocument): void {
    for (const key of doc.refKeys) {
      if (!this.pages.has(key)) this.pages.set(key, doc);
      if (!this.pagesLower.has(key.toLowerCase())) this.pagesLower.set(key.toLowerCase(), doc);
      for (const slug of slugKeys(key)) {
        const known = this.pagesBySlug.get(slug);
        this.pagesBySlug.set(slug, known === undefined || known === doc ? doc : null);
      }
    }
  }

  resolve(doc: ImportDocument, rawTarget: string, kind: ReferenceKind): Resolution {
    if (kind === 'include') return this.resolveInclude(doc, rawTarget.trim());
    const target = rawTarget.trim();
    // Converted Confluence pages link their own headings by Confluence's anchors
    // (`#PageTitle-Heading`); kb archives are restored as written.
    if (target.startsWith('#') && !doc.metadata) {
      const fragment = this.anchorIn(doc, target);
      return fragment === target ? { type: 'keep' } : { type: 'fragment', fragment };
    }
    if (
      target === '' ||
      target.startsWith('#') ||
      target.startsWith('//') ||
      /^[a-z][a-z0-9+.-]*:/i.test(target)
    )
      return { type: 'keep' };
    if (isMediaPath(target) || target.includes('{{')) return { type: 'keep' };
    const cut = target.search(/[?#]/);
    const rawPath = cut >= 0 ? target.slice(0, cut) : target;
    // Matched as a browser would: percent-decoded (and, below, case-folded); the name as
    // written is tried too, for files whose names hold `%` or `+` themselves.
    const pathPart = safeDecode(rawPath);
    const hash = target.indexOf('#');
    const fragment = hash >= 0 ? target.slice(hash) : '';
    if (pathPart === '') return { type: 'keep' };

    const candidates: string[] = [];
    for (const path of new Set([pathPart, rawPath])) {
      const found = candidatePaths(doc, path);
      if (found === undefined) return { type: 'missing' };
      candidates.push(...found);
    }

    if (kind === 'link') {
      for (const candidate of candidates) {
        const page = this.findPage(candidate);
        if (page) return { type: 'page', slug: page.slug, suffix: this.anchorIn(page, fragment) };
      }
      for (const candidate of candidates) {
        for (const slug of slugKeys(candidate)) {
          const page = this.pagesBySlug.get(slug);
          if (page) return { type: 'page', slug: page.slug, suffix: this.anchorIn(page, fragment) };
        }
      }
    }
    for (const candidate of candidates) {
      const asset = this.assets.has(candidate)
        ? candidate
        : this.assetsLower.get(candidate.toLowerCase());
      if (asset) {
        return {
          type: 'asset',
          path: asset,
          suffix: kind === 'link' ? fragment : '',
          media: IMAGE_EXTENSIONS.test(asset) ? 'image' : 'attachment',
        };
      }
    }
    if (pathPart.startsWith('/') && kind === 'link')
      return { type: 'missing', existingSlug: candidates[0].toLowerCase() };
    return { type: 'missing' };
  }

  /**
   * An include names a kb slug as written; only a page of this import named by its archive
   * path (a converted Confluence "include page" macro, a relative path) is rewritten to the
   * page's slug. kb archives are restored as written; anything else is kept, never reported.
   */
  private resolveInclude(doc: ImportDocument, target: string): Resolution {
    if (doc.metadata || target === '') return { type: 'keep' };
    for (const candidate of candidatePaths(doc, safeDecode(target)) ?? []) {
      const page = this.findPage(candidate);
      if (page) return { type: 'page', slug: page.slug, suffix: '' };
    }
    return { type: 'keep' };
  }

  /**
   * The fragment as the target page's heading id (GitHub's rules, as kb renders them): an id
   * that exists stays; `#Why` finds `why`; Confluence's `#PageTitle-HeadingText` anchors find
   * the heading they named. Anything else is kept as written.
   */
  private anchorIn(page: ImportDocument, fragment: string): string {
    if (fragment.length <= 1) return fragment;
    const name = safeDecode(fragment.slice(1));
    const id =
      this.headingAnchors(page).get(name) ?? this.headingAnchors(page).get(anchorKey(name));
    return id === undefined ? fragment : `#${id}`;
  }

  private headingAnchors(page: ImportDocument): Map<string, string> {
    let anchors = this.anchors.get(page);
    if (anchors) return anchors;
    anchors = new Map();
    const slugger = new GithubSlugger();
    const title = compact(page.title);
    for (const heading of headings(page.content)) {
      const text = plainTitle(heading);
      const id = slugger.slug(text);
      if (id === '' || anchors.has(id)) continue;
      anchors.set(id, id);
      for (const key of [compact(text), `${title}-${compact(text)}`, GithubSlugger.slug(text)])
        if (!anchors.has(anchorKey(key))) anchors.set(anchorKey(key), id);
    }
    this.anchors.set(page, anchors);
    return anchors;
  }

  private findPage(candidate: string): ImportDocument | undefined {
    const stems = WEB_PAGE.test(candidate)
      ? [candidate, candidate.replace(WEB_PAGE, '')]
      : [candidate];
    for (const stem of stems) {
      for (const suffix of PAGE_SUFFIXES) {
        const key = stem === '' ? suffix.replace(/^\//, '') : `${stem}${suffix}`;
        if (key === '') continue;
        const page = this.pages.get(key) ?? this.pagesLower.get(key.toLowerCase());
        if (page) return page;
      }
    }
    return undefined;
  }
}

/** The archive paths a target may name, or undefined when it leaves the archive. */
function candidatePaths(doc: ImportDocument, path: string): string[] | undefined {
  if (path.startsWith('/')) {
    const rooted = posix.normalize(path).replace(/^\/+/, '').replace(/\/+$/, '');
    const candidates = [rooted];
    if (LOCALE.test(rooted)) candidates.push(rooted.replace(LOCALE, ''));
    const top = doc.sourcePath.includes('/') ? doc.sourcePath.split('/')[0] : '';
    if (top) candidates.push(`${top}/${rooted}`);
    return candidates;
  }
  const joined = posix.normalize(posix.join(doc.baseDir || '.', path)).replace(/\/+$/, '');
  if (joined.startsWith('..')) return undefined;
  return [joined === '.' ? '' : joined];
}

/**
 * Slugs a path gives, decoded and as written: a link `Hello+world%21.html` finds the file
 * `hello-world-21.md` that an older tool slugified from the same encoded name, and the file
 * `Hello world!.md`.
 */
function slugKeys(path: string): string[] {
  if (path === '') return [];
  const stem = dropExtension(path);
  const keys = new Set<string>([undecodedSlug(stem)]);
  const decoded = slugFromPath(stem);
  if (decoded) keys.add(decoded);
  keys.delete('');
  return [...keys].filter((key) => !key.split('/').includes(''));
}

export interface ReferencePlan {
  /** Files to store, by archive path. */
  assets: Map<string, MediaKindOf>;
  /** Root-relative link targets that may name pages already in kb. */
  maybeExisting: Set<string>;
}

/** First pass: which files are referenced (to store them) and which slugs to look up. */
export async function planReferences(
  documents: ImportDocument[],
  index: ReferenceIndex,
): Promise<ReferencePlan> {
  const plan: ReferencePlan = { assets: new Map(), maybeExisting: new Set() };
  const tick = pacer();
  for (const doc of documents) {
    await tick();
    rewriteReferences(doc.content, (target, kind) => {
      const resolution = index.resolve(doc, target, kind);
      if (resolution.type === 'asset') {
        const known = plan.assets.get(resolution.path);
        // A file used both as image and as link is stored once, as an image when it is one.
        if (known !== 'image') plan.assets.set(resolution.path, resolution.media);
      } else if (resolution.type === 'missing' && resolution.existingSlug) {
        plan.maybeExisting.add(resolution.existingSlug);
      }
      return undefined;
    });
  }
  return plan;
}

export interface RewriteContext {
  /** URL of a stored file; undefined when it could not be stored (or in a dry run: the path). */
  assetUrl(path: string): string | undefined;
  existingSlugs: Set<string>;
  dryRun: boolean;
  unresolved(doc: ImportDocument, target: string, kind: ReferenceKind): void;
}

/** Second pass: rewrites targets to the new slugs and stored media, reporting the rest. */
export function rewriteDocument(
  doc: ImportDocument,
  index: ReferenceIndex,
  context: RewriteContext,
): string {
  return rewriteReferences(doc.content, (target, kind) => {
    const resolution = index.resolve(doc, target, kind);
    switch (resolution.type) {
      case 'keep':
        return undefined;
      case 'fragment':
        return resolution.fragment;
      case 'page':
        // kb's own archive holds kb links: one that kb already reads as this page (relative
        // or absolute, with its anchor) stays as written, so export → import is a no-op.
        if (doc.metadata && resolveInternalHref(target, doc.slug)?.slug === resolution.slug)
          return undefined;
        return `/${resolution.slug}${resolution.suffix}`;
      case 'asset': {
        const url = context.assetUrl(resolution.path);
        if (url === undefined) {
          if (!context.dryRun) context.unresolved(doc, target, kind);
          return undefined;
        }
        return `${url}${resolution.suffix}`;
      }
      case 'missing':
        if (resolution.existingSlug && context.existingSlugs.has(resolution.existingSlug))
          return undefined;
        context.unresolved(doc, target, kind);
        return undefined;
    }
  });
}

function compact(text: string): string {
  return text.replace(/\s+/g, '');
}

function anchorKey(name: string): string {
  return `\u0000${compact(name).toLowerCase()}`;
}

/** The heading texts of Markdown (ATX and setext), outside code, in order. */
function headings(markdown: string): string[] {
  const found: string[] = [];
  const inFence = codeFenceTracker();
  const lines = markdown.split('\n');
  let previous = '';
  for (const line of lines) {
    if (inFence(line)) {
      previous = '';
      continue;
    }
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) found.push(atx[1]);
    else if (
      /^ {0,3}(?:=+|-+)[ \t]*$/.test(line) &&
      previous.trim() !== '' &&
      !/^\s*[-*+>|]/.test(previous)
    )
      found.push(previous.trim());
    previous = line;
  }
  return found;
}
