import { posix } from 'node:path';
import { safeDecode } from '../pages/rendering/links';
import { ImportDocument, SourceEntry } from './import.types';
import { ReferenceKind, rewriteReferences } from './references';

export type MediaKindOf = 'image' | 'attachment';

export type Resolution =
  | { type: 'keep' }
  | { type: 'page'; slug: string; suffix: string }
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

/**
 * Resolves the references of imported pages: to another page of the same import (by any of its
 * archive paths), to a file of the import (stored as image or attachment), or reports it.
 */
export class ReferenceIndex {
  private readonly pages = new Map<string, ImportDocument>();
  private readonly pagesLower = new Map<string, ImportDocument>();
  private readonly assetsLower = new Map<string, string>();

  constructor(
    documents: ImportDocument[],
    private readonly assets: Map<string, SourceEntry>,
  ) {
    for (const doc of documents) {
      for (const key of doc.refKeys) {
        if (!this.pages.has(key)) this.pages.set(key, doc);
        if (!this.pagesLower.has(key.toLowerCase())) this.pagesLower.set(key.toLowerCase(), doc);
      }
    }
    for (const path of assets.keys()) this.assetsLower.set(path.toLowerCase(), path);
  }

  resolve(doc: ImportDocument, rawTarget: string, kind: ReferenceKind): Resolution {
    const target = rawTarget.trim();
    if (
      target === '' ||
      target.startsWith('#') ||
      target.startsWith('//') ||
      /^[a-z][a-z0-9+.-]*:/i.test(target)
    )
      return { type: 'keep' };
    if (/^\/api\/(images|attachments)\//.test(target) || target.includes('{{'))
      return { type: 'keep' };
    const cut = target.search(/[?#]/);
    const pathPart = safeDecode(cut >= 0 ? target.slice(0, cut) : target);
    const hash = target.indexOf('#');
    const fragment = hash >= 0 ? target.slice(hash) : '';
    if (pathPart === '') return { type: 'keep' };

    const candidates: string[] = [];
    if (pathPart.startsWith('/')) {
      const rooted = posix.normalize(pathPart).replace(/^\/+/, '').replace(/\/+$/, '');
      candidates.push(rooted);
      if (LOCALE.test(rooted)) candidates.push(rooted.replace(LOCALE, ''));
      const top = doc.sourcePath.includes('/') ? doc.sourcePath.split('/')[0] : '';
      if (top) candidates.push(`${top}/${rooted}`);
    } else {
      const joined = posix.normalize(posix.join(doc.baseDir || '.', pathPart)).replace(/\/+$/, '');
      if (joined.startsWith('..')) return { type: 'missing' };
      candidates.push(joined === '.' ? '' : joined);
    }

    if (kind === 'link') {
      for (const candidate of candidates) {
        const page = this.findPage(candidate);
        if (page) return { type: 'page', slug: page.slug, suffix: fragment };
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

  private findPage(candidate: string): ImportDocument | undefined {
    for (const suffix of PAGE_SUFFIXES) {
      const key = candidate === '' ? suffix.replace(/^\//, '') : `${candidate}${suffix}`;
      if (key === '') continue;
      const page = this.pages.get(key) ?? this.pagesLower.get(key.toLowerCase());
      if (page) return page;
    }
    return undefined;
  }
}

export interface ReferencePlan {
  /** Files to store, by archive path. */
  assets: Map<string, MediaKindOf>;
  /** Root-relative link targets that may name pages already in kb. */
  maybeExisting: Set<string>;
}

/** First pass: which files are referenced (to store them) and which slugs to look up. */
export function planReferences(documents: ImportDocument[], index: ReferenceIndex): ReferencePlan {
  const plan: ReferencePlan = { assets: new Map(), maybeExisting: new Set() };
  for (const doc of documents) {
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
      case 'page':
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
