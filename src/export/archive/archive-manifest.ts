import type { ArchiveComment } from '../../comments/public-api';
import type {
  PageTemplateResponse,
  PublicMetadata,
  RevisionMetadata,
} from '../../pages/public-api';

/**
 * `manifest.json` of a kb archive (docs/export.md). It is the last entry of the ZIP and holds
 * everything the Markdown files cannot: page metadata, media metadata and SHA-256 checksums of
 * every other entry. `version` changes only when a field changes meaning or disappears;
 * readers ignore fields they do not know.
 */
export const ARCHIVE_FORMAT = 'kb-archive';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_PATH = 'manifest.json';

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  exportedAt: string;
  exportedBy: string;
  /** `all` pages, or the `slugs` the request named. */
  selection: 'all' | 'slugs';
  /** Site-wide variables pages inherit (values as stored). */
  siteVariables: Record<string, string>;
  /** Old slugs of moved pages (`from`) and the archived page each names (`to`), by `from`. */
  redirects: { from: string; to: string }[];
  /** Page templates (GET /api/templates items), restored by imports of the archive. */
  templates: PageTemplateResponse[];
  pages: ArchivePageEntry[];
  media: ArchiveMediaEntry[];
  counts: { pages: number; media: number };
}

/**
 * One page: its file, slug and title, every metadata field of a page (PAGE_COLUMNS `metadata`:
 * the owner by username, ids differ between instances, and by id on this instance; group
 * names; the page's own variables, site-wide ones are in `siteVariables`), and its bookkeeping.
 */
export type ArchivePageEntry = {
  /** Path of the Markdown file in the archive: `<slug>.md`. */
  path: string;
  slug: string;
  title: string;
} & PublicMetadata &
  Pick<RevisionMetadata, 'ownerId'> & {
    revision: number;
    /** The change summary of that revision (null: none); an import writes it with its revision. */
    summary: string | null;
    createdAt: string;
    updatedAt: string;
    /** Ids of the media the page references (their files are in `media`). */
    media: string[];
    /** Size and SHA-256 (hex) of the Markdown file's bytes. */
    size: number;
    sha256: string;
    /** The page's comments, thread by thread (docs/comments.md). */
    comments: ArchiveComment[];
  };

export interface ArchiveMediaEntry {
  id: string;
  kind: 'image' | 'attachment';
  /** Path of the file in the archive: `media/<id>/<filename>`. */
  path: string;
  filename: string;
  mimeType: string;
  size: number;
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
  width?: number;
  height?: number;
  createdAt: string;
}
