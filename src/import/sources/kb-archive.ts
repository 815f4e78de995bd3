import { readArchiveComments, type ArchiveComment } from '../../comments/public-api';
import { ArchiveMetadata, SourceEntry } from '../import.types';
import { decodeUtf8 } from '../source-tree';

/**
 * kb's own archive (docs/export.md): Markdown files `<slug>.md` plus `manifest.json` with every
 * page's metadata and the media. Importing such an archive restores the pages with their
 * metadata, and stores every media file it lists.
 */
export interface KbArchivePage {
  slug: string;
  title: string;
  metadata: ArchiveMetadata;
  /** The change summary of the exported revision, written with the import's revision. */
  summary: string | null;
  /** The page's comments (restored by administrators' imports; docs/comments.md). */
  comments?: ArchiveComment[];
}

export interface KbArchive {
  pages: Map<string, KbArchivePage>;
  media: Map<string, 'image' | 'attachment'>;
  /** Site-wide variables as the archive stored them (validated when they are restored). */
  siteVariables: Record<string, string>;
  /** Old slugs of moved pages and the slug each names (restored when that page is live). */
  redirects: { from: string; to: string }[];
  /** Page templates as the archive stored them (validated when they are restored). */
  templates: unknown[];
}

export const MANIFEST_PATH = 'manifest.json';

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function readKbArchive(entries: SourceEntry[]): KbArchive | undefined {
  const entry = entries.find((e) => e.path === MANIFEST_PATH);
  if (!entry) return undefined;
  let manifest: {
    format?: unknown;
    pages?: unknown;
    media?: unknown;
    siteVariables?: unknown;
    redirects?: unknown;
    templates?: unknown;
  };
  try {
    manifest = JSON.parse(decodeUtf8(entry.data) ?? '');
  } catch {
    return undefined;
  }
  if (manifest?.format !== 'kb-archive' || !Array.isArray(manifest.pages)) return undefined;
  const siteVariables =
    manifest.siteVariables &&
    typeof manifest.siteVariables === 'object' &&
    !Array.isArray(manifest.siteVariables)
      ? (manifest.siteVariables as Record<string, string>)
      : {};
  const redirects = Array.isArray(manifest.redirects)
    ? (manifest.redirects as Record<string, unknown>[]).flatMap((r) =>
        r && typeof r.from === 'string' && typeof r.to === 'string'
          ? [{ from: r.from, to: r.to }]
          : [],
      )
    : [];
  const templates = Array.isArray(manifest.templates) ? (manifest.templates as unknown[]) : [];
  const archive: KbArchive = {
    pages: new Map(),
    media: new Map(),
    siteVariables,
    redirects,
    templates,
  };
  for (const raw of manifest.pages as Record<string, unknown>[]) {
    if (!raw || typeof raw.path !== 'string' || typeof raw.slug !== 'string') continue;
    archive.pages.set(raw.path, {
      slug: raw.slug,
      title: typeof raw.title === 'string' ? raw.title : '',
      summary: stringOrNull(raw.summary),
      comments: readArchiveComments(raw.comments),
      metadata: {
        icon: stringOrNull(raw.icon),
        language: stringOrNull(raw.language),
        tags: Array.isArray(raw.tags)
          ? raw.tags.filter((t): t is string => typeof t === 'string')
          : [],
        lifecycle: (typeof raw.lifecycle === 'string'
          ? raw.lifecycle
          : 'published') as ArchiveMetadata['lifecycle'],
        owner: stringOrNull(raw.owner),
        reviewIntervalDays:
          typeof raw.reviewIntervalDays === 'number' ? raw.reviewIntervalDays : null,
        nextReviewAt: stringOrNull(raw.nextReviewAt),
        groups: Array.isArray(raw.groups)
          ? raw.groups.filter((g): g is string => typeof g === 'string')
          : [],
        deprecatedTarget: stringOrNull(raw.deprecatedTarget),
        properties:
          raw.properties && typeof raw.properties === 'object'
            ? (raw.properties as ArchiveMetadata['properties'])
            : {},
        variables:
          raw.variables && typeof raw.variables === 'object'
            ? (raw.variables as Record<string, string>)
            : {},
        verified: raw.verified !== false,
      },
    });
  }
  if (Array.isArray(manifest.media)) {
    for (const raw of manifest.media as Record<string, unknown>[]) {
      if (
        raw &&
        typeof raw.path === 'string' &&
        (raw.kind === 'image' || raw.kind === 'attachment')
      )
        archive.media.set(raw.path, raw.kind);
    }
  }
  return archive;
}
