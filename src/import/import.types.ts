import type { ArchiveComment } from '../comments/public-api';
/** Shared shapes of the import pipeline (pure; no Nest, no database). */
import type { PublicMetadata } from '../pages/public-api';

export const IMPORT_FORMATS = ['markdown', 'wikijs', 'confluence'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One file of the import after uploads and archives were expanded: path inside its archive. */
export interface SourceEntry {
  /** Normalised POSIX path (no leading `/`, no `..`), relative to the archive root or the upload. */
  path: string;
  /** Label of the upload the entry came from (`docs.zip`), for archive-level problems. */
  upload: string;
  data: Buffer;
}

/** A page produced by a source converter, before links and images are resolved. */
export interface ImportDocument {
  /** Where the page came from, as named in reports and field problems (`guide/intro.md`). */
  sourcePath: string;
  /** The final slug (prefix included). */
  slug: string;
  title: string;
  /** Markdown; link and image targets are still the source's own references. */
  content: string;
  tags?: string[];
  properties?: Record<string, unknown>;
  /** Archive folder relative references are resolved against. */
  baseDir: string;
  /** Archive-root paths a link may use to reach this page (`install/docker`, `a/b.md`). */
  refKeys: string[];
  /** Page metadata from a kb archive's manifest.json: restored, also on replace. */
  metadata?: ArchiveMetadata;
  /** A kb archive's change summary of the page's exported revision. */
  summary?: string | null;
  /** Usernames that may own a new page, first existing active user wins (Confluence XML). */
  ownerCandidates?: string[];
  /**
   * Markdown converted from Confluence, read with cleanConfluence: its title may carry the
   * space name (`Space name : Page`), `certain`ly when Confluence's title element or page
   * header was still there.
   */
  confluenceTitle?: 'certain' | 'possible';
}

/**
 * The metadata a kb archive (our own export) carries for one page: every metadata field of a
 * page (PAGE_COLUMNS), the owner by username (ids differ between instances).
 */
export type ArchiveMetadata = PublicMetadata;

/** A document that cannot be imported, with the reason. */
export interface InvalidDocument {
  path: string;
  code: string;
  message: string;
}

/** What a source converter hands back. */
export interface ConversionResult {
  documents: ImportDocument[];
  invalid: InvalidDocument[];
  /** Non-page files by archive path (images, attachments) that references may point at. */
  assets: Map<string, SourceEntry>;
  /** Why a file that could have been a page is only a file (reported when nothing uses it). */
  notPages?: Map<string, string>;
  /** Confluence macros met, by name, and how each was converted. */
  macros?: Map<string, MacroUse>;
  /** Files stored even when no page references them, with their kind (kb archive media). */
  keepAssets?: Map<string, 'image' | 'attachment'>;
  /** Site-wide variables a kb archive restores (set or overwritten; others are kept). */
  siteVariables?: Record<string, string>;
  /** Redirects a kb archive restores (old slug → slug of a page), administrators only. */
  redirects?: { from: string; to: string }[];
  /** Page templates a kb archive restores (replacing those of the same name). */
  templates?: unknown[];
  /** The comments a kb archive restores, by the archive's slug of their page (administrators only). */
  comments?: Map<string, ArchiveComment[]>;
}

/** One kind of Confluence macro met in an import. */
export interface MacroUse {
  /** Times it occurs, over all pages. */
  count: number;
  /** What it became (`fenced code block with its language`, `dropped`…). */
  conversion: string;
}

export const IMPORT_MODES = ['merge', 'mirror'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export interface ImportOptions {
  format: ImportFormat;
  /** Slug prefix (already validated and normalised), '' for none. */
  prefix: string;
  /**
   * `merge` (default): create and replace. `mirror`: the upload is the source of truth for the
   * prefix; live pages under it that the upload no longer holds go to the bin (jobs stored
   * before the field existed have none: merge).
   */
  mode?: ImportMode;
  dryRun: boolean;
  skipInvalid: boolean;
  /** Remove Confluence page chrome from Markdown (default: on for `confluence`). */
  cleanConfluence: boolean;
  /** Confluence XML export: also import blog posts (under `blog/`). */
  includeBlogPosts: boolean;
  /** Confluence XML export: base URL that Jira macros link to. */
  jiraBaseUrl?: string;
}

export interface ImportedMediaItem {
  /** Archive path of the file. */
  path: string;
  id: string | null;
  url: string | null;
}

export interface UnresolvedReference {
  /** The page (source path) holding the reference. */
  path: string;
  target: string;
}

/** One page of the upload: the file it came from, its slug and what the import did with it. */
export interface ImportedPageOutcome {
  path: string;
  slug: string;
  outcome: 'created' | 'replaced' | 'unchanged';
}

export interface ImportReport {
  format: ImportFormat;
  dryRun: boolean;
  /** Every page of the upload by file (created, replaced and unchanged say the same by slug). */
  pages: ImportedPageOutcome[];
  created: string[];
  replaced: string[];
  unchanged: string[];
  /** mode=mirror: slugs of the pages under the prefix moved to the bin (or that would be). */
  binned: string[];
  skipped: { path: string; reason: string; code: string }[];
  images: ImportedMediaItem[];
  attachments: ImportedMediaItem[];
  unresolvedLinks: UnresolvedReference[];
  unresolvedImages: UnresolvedReference[];
  /** Referenced files the media rules refused (type or size), with the reason. */
  refusedFiles: { path: string; code: string; reason: string }[];
  /**
   * Files referenced as images whose type the image rules do not accept (SVG, BMP, TIFF…):
   * stored as attachments (always served as a download) and referenced by that URL.
   */
  storedAsAttachment: (ImportedMediaItem & { reason: string })[];
  /** Names of the site-wide variables a kb archive set (or would set, in a dry run). */
  siteVariables: string[];
  /** Files of the upload that are neither pages nor referenced by one, with the reason. */
  ignored: { path: string; reason: string }[];
  /** Confluence macros met (XML and HTML exports), by name, and how each was converted. */
  macros: { name: string; count: number; conversion: string }[];
  counts: {
    created: number;
    replaced: number;
    unchanged: number;
    binned: number;
    skipped: number;
    images: number;
    attachments: number;
    unresolvedLinks: number;
    unresolvedImages: number;
    refusedFiles: number;
    storedAsAttachment: number;
    siteVariables: number;
    ignored: number;
    macros: number;
  };
}
