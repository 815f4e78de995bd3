import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { PagesConfig } from '../../common/config/pages-config';
import type { PageLinkResponse, PageResponse } from '../dto/page-response.dto';
import type { PageHead } from '../model/page-columns';
import type { PageRow } from '../store/page-rows';
import { holdsIncludes } from '../rendering/includes';
import { linksPages, markMissingLinks } from '../rendering/missing-links';

/** The members of a page read that depend on the caller, filled in per request. */
type CallerMember = 'backlinks' | 'deprecatedTarget';
const CALLER_MEMBERS: ReadonlySet<string> = new Set<CallerMember>([
  'backlinks',
  'deprecatedTarget',
]);

/** What one caller's response adds to the frame: its members and the links to mark missing. */
export interface CallerParts {
  backlinks: PageLinkResponse[];
  deprecatedTarget: string | null;
  /** Link targets this caller cannot open (PagesService: missing or not visible). */
  missing: ReadonlySet<string>;
  /** The HTML with its includes filled for this caller, when it holds includes. */
  html?: string;
}

/** The stored HTML, serialised once for callers with no missing link, marked per caller else. */
class HtmlSegment {
  readonly bytes: Buffer;
  readonly linksPages: boolean;
  readonly includes: boolean;
  constructor(readonly html: string) {
    this.bytes = Buffer.from(JSON.stringify(html));
    this.includes = holdsIncludes(html);
    this.linksPages = linksPages(html);
  }
  for(missing: ReadonlySet<string>, filled: string | undefined): Buffer {
    if (missing.size === 0 && filled === undefined) return this.bytes;
    return Buffer.from(JSON.stringify(markMissingLinks(filled ?? this.html, missing)));
  }
}

type Segment = Buffer | CallerMember | HtmlSegment;

/**
 * A page read serialised once: the JSON bytes between the members that depend on the caller
 * (backlinks and the deprecated target are filtered by visibility; the HTML's missing links
 * are marked by visibility), in the order `JSON.stringify` writes the response's members.
 */
export class PageResponseFrame {
  private constructor(
    /** Bytes and caller members, alternating: bytes, member, bytes, member, bytes. */
    private readonly segments: readonly Segment[],
    readonly bytes: number,
  ) {}

  static of(body: PageResponse): PageResponseFrame {
    const segments: Segment[] = [];
    let text = '{';
    let first = true;
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (CALLER_MEMBERS.has(key)) {
        segments.push(Buffer.from(text), key as CallerMember);
        text = '';
      } else if (key === 'html' && typeof value === 'string') {
        segments.push(Buffer.from(text), new HtmlSegment(value));
        text = '';
      } else {
        text += JSON.stringify(value);
      }
    }
    segments.push(Buffer.from(`${text}}`));
    const bytes = segments.reduce(
      (n, s) =>
        n + (s instanceof HtmlSegment ? s.bytes.length * 2 : typeof s === 'string' ? 0 : s.length),
      0,
    );
    return new PageResponseFrame(segments, bytes);
  }

  /** Whether the HTML holds an internal link (else no caller needs its missing links). */
  get linksPages(): boolean {
    return this.segments.some((s) => s instanceof HtmlSegment && s.linksPages);
  }

  /** The stored HTML when it holds includes (filled per caller), else null. */
  get includes(): string | null {
    const html = this.segments.find((s): s is HtmlSegment => s instanceof HtmlSegment);
    return html?.includes ? html.html : null;
  }

  /** The response for one caller: the same bytes `JSON.stringify` of the whole body gives. */
  render(parts: CallerParts): Buffer {
    const chunks = this.segments.map((s) =>
      s instanceof HtmlSegment
        ? s.for(parts.missing, parts.html)
        : typeof s === 'string'
          ? Buffer.from(JSON.stringify(parts[s]))
          : s,
    );
    return Buffer.concat(chunks);
  }
}

interface Entry {
  version: string;
  /** The page's slug when the entry was built (the `bySlug` index). */
  slug: string;
  frame: PageResponseFrame;
}

/**
 * Serialised page reads per process, bounded by PAGE_CACHE_MB (least recently read out first).
 * An entry is used only for the exact state it was built from: the page's revision (every
 * change of a page's stored fields counts it up), slug, the site-variables version its HTML was
 * rendered at and the usernames the response shows, all read per request with the page's head
 * row; so a change made by any process is seen at the next read. Visibility, the ETag and the
 * caller's members are decided per request, never cached.
 */
@Injectable()
export class PageResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Slug → page id of the entries, so a read can tell a certain miss before any statement. */
  private readonly bySlug = new Map<string, string>();
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(@InjectConfig('pages') config: Pick<PagesConfig, 'cacheBytes'>) {
    this.maxBytes = config.cacheBytes;
  }

  /** What a cached response depends on besides the page's id. */
  static versionOf(row: PageRow<Pick<PageHead, 'revision' | 'slug'>>): string {
    return JSON.stringify([
      row.page.revision,
      row.page.slug,
      row.siteVersion ?? 0,
      row.ownerName,
      row.updatedByName,
    ]);
  }

  /**
   * Whether an entry was built for the page at `slug`: without one a read is a miss whatever
   * the page's state, so it reads the whole row at once instead of the head row first.
   */
  holds(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  get(pageId: string, version: string): PageResponseFrame | undefined {
    const entry = this.entries.get(pageId);
    if (!entry || entry.version !== version) return undefined;
    // Most recently read last: the first entries are the ones to drop.
    this.entries.delete(pageId);
    this.entries.set(pageId, entry);
    return entry.frame;
  }

  /** Keeps `body` for the page state `version`; answers its frame either way. */
  put(pageId: string, version: string, body: PageResponse): PageResponseFrame {
    const frame = PageResponseFrame.of(body);
    if (frame.bytes > this.maxBytes / 8) return frame;
    this.remove(pageId);
    this.entries.set(pageId, { version, slug: body.slug, frame });
    this.bySlug.set(body.slug, pageId);
    this.bytes += frame.bytes;
    for (const [id] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(id);
    }
    return frame;
  }

  private remove(pageId: string): void {
    const entry = this.entries.get(pageId);
    if (!entry) return;
    this.entries.delete(pageId);
    if (this.bySlug.get(entry.slug) === pageId) this.bySlug.delete(entry.slug);
    this.bytes -= entry.frame.bytes;
  }
}
