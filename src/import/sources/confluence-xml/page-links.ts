import { safeDecode } from '../../../pages/public-api';
import { type ContentRecord, type ExportModel, spaceKeyOf } from './export-model';
import type { PageRef } from './storage-macros';

/**
 * The imported pages of one Confluence XML export as links name them: by id (a historical
 * version's id names its current page), by title within a space, by title alone, and each
 * space's home page.
 */
export class ExportPages {
  /** Page ids by space key and title. */
  private readonly byTitle = new Map<string, string>();
  /** Page ids by title alone; null when several spaces hold the title. */
  private readonly byBareTitle = new Map<string, string | null>();
  /** The imported page an id names: its own, or that of one of its historical versions. */
  private readonly byId = new Map<string, string>();
  /** Home page ids by lower-case space key. */
  private readonly homes = new Map<string, string>();

  constructor(model: ExportModel, selected: Map<string, ContentRecord>) {
    for (const page of selected.values()) {
      this.byTitle.set(titleKey(spaceKeyOf(page, model), page.title), page.id);
      const key = bareTitle(page.title);
      this.byBareTitle.set(key, this.byBareTitle.has(key) ? null : page.id);
    }
    for (const content of model.contents.values()) {
      const current = content.originalId ?? content.id;
      if (selected.has(current)) this.byId.set(content.id, current);
    }
    for (const space of model.spaces.values())
      if (space.homePageId && selected.has(space.homePageId))
        this.homes.set(space.key.toLowerCase(), space.homePageId);
  }

  /**
   * The imported page a reference names: by id, else by title in the named space (the
   * linking page's space when none is named; a title only one space of the export holds
   * when that space has no such page), else a space's home page.
   */
  find(ref: PageRef, spaceKey: string): string | undefined {
    if (ref.id) {
      const found = this.byId.get(ref.id);
      if (found || !ref.title) return found;
    }
    if (ref.title) {
      const found = this.byTitle.get(titleKey(ref.spaceKey ?? spaceKey, ref.title));
      if (found || ref.spaceKey) return found;
      return this.byBareTitle.get(bareTitle(ref.title)) ?? undefined;
    }
    return ref.spaceKey ? this.homes.get(ref.spaceKey.toLowerCase()) : undefined;
  }
}

/** Titles compared as Confluence shows them: Unicode-normalised, case and spacing folded. */
function titleKey(spaceKey: string, title: string): string {
  return `${spaceKey.toLowerCase()}\u0000${bareTitle(title)}`;
}

function bareTitle(title: string): string {
  return title.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The page a Confluence address names, with its fragment: `…/viewpage.action?pageId=123`
 * (any `.action` with a pageId, or with spaceKey and title), Cloud's
 * `…/spaces/KEY/pages/123/Title`, `…/display/KEY/Page+Title` and the short links
 * `…/x/EwAl`. Relative or on any host: page ids are unique to a Confluence.
 */
export function pageAddress(href: string): { ref: PageRef; fragment: string } | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), 'http://confluence.invalid/');
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const fragment = url.hash;
  if (/\.action$/i.test(url.pathname)) {
    const pageId = url.searchParams.get('pageId');
    if (pageId && /^\d+$/.test(pageId)) return { ref: { id: pageId }, fragment };
    const title = url.searchParams.get('title');
    const spaceKey = url.searchParams.get('spaceKey');
    if (title && spaceKey) return { ref: { spaceKey, title }, fragment };
    return undefined;
  }
  const tiny = /(?:^|\/)x\/([A-Za-z0-9_-]{1,11})\/?$/.exec(url.pathname);
  if (tiny) return { ref: { id: tinyLinkId(tiny[1]) }, fragment };
  const cloud = /\/spaces\/([^/]+)\/pages\/(\d+)(?:\/|$)/.exec(url.pathname);
  if (cloud) return { ref: { id: cloud[2], spaceKey: safeDecode(cloud[1]) }, fragment };
  const display = /(?:^|\/)display\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (display && !display[1].startsWith('~')) {
    const title = safeDecode(display[2].replace(/\+/g, ' '));
    return { ref: { spaceKey: safeDecode(display[1]), title }, fragment };
  }
  return undefined;
}

/**
 * The page id of a Confluence short link (`/x/EwAl`): the id's bytes, little-endian, in
 * URL-safe Base64 (`-` and `_` for `/` and `+`) without its trailing zero bytes.
 */
function tinyLinkId(tiny: string): string {
  const base64 = tiny.replace(/-/g, '/').replace(/_/g, '+').padEnd(11, 'A') + '=';
  return Buffer.from(base64, 'base64').readBigUInt64LE(0).toString();
}
