import { safeDecode } from '../../pages/public-api';
import { emoticonEmoji } from './emoticons';

/**
 * Confluence page chrome inside the body of Markdown converted from an HTML export (pandoc's
 * `markdown` and `gfm`, html2text, markdownify…): pure text rewrites of the parts outside code.
 * The header and footer lines around the body are markdown-cleanup.ts's job.
 */

/** Blocks of the export that hold no page content: the attachments macro, the page metadata… */
const CHROME_CLASSES =
  /\b(?:plugin_attachments_container|plugin_attachments_upload_container|page-metadata|pagesubheading|breadcrumb-section|download-all-link)\b/;
const HTML_DIV_OPEN = /<div\b[^>]*>/gi;
const HTML_DIV_CLOSE = /<\/div\s*>/gi;
/** pandoc's fenced divs: `::: {.plugin_attachments_container}` … `:::`. */
const FENCED_DIV = /^ {0,3}:{3,}\s*(\S.*)?$/;

/** The export's page header blocks ("Created by …", "This page last changed on …"). */
const HEADER_CLASSES = /\b(?:page-metadata|pagesubheading)\b/;

/**
 * Removes whole chrome blocks, as raw HTML (`<div class="plugin_attachments_container">` to
 * its matching `</div>`) or as pandoc fenced divs, from a run of lines outside code; `header`
 * says whether one was the page's header block.
 */
export function dropChromeBlocks(lines: string[]): { lines: string[]; header: boolean } {
  const kept: string[] = [];
  let header = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenced = FENCED_DIV.exec(line);
    if (fenced?.[1] && CHROME_CLASSES.test(fenced[1])) {
      header ||= HEADER_CLASSES.test(fenced[1]);
      let depth = 1;
      while (depth > 0 && ++i < lines.length) {
        const next = FENCED_DIV.exec(lines[i]);
        if (next) depth += next[1] ? 1 : -1;
      }
      continue;
    }
    const open = /<div\b[^>]*>/i.exec(line);
    if (open && CHROME_CLASSES.test(open[0]) && !/\bid\s*=\s*["']main-content/.test(open[0])) {
      header ||= HEADER_CLASSES.test(open[0]);
      // From this div to the line where it closes (nested divs counted).
      const from = line.slice(open.index);
      let depth = count(from, HTML_DIV_OPEN) - count(from, HTML_DIV_CLOSE);
      const before = line.slice(0, open.index);
      while (depth > 0 && ++i < lines.length)
        depth += count(lines[i], HTML_DIV_OPEN) - count(lines[i], HTML_DIV_CLOSE);
      if (before.trim() !== '') kept.push(before);
      continue;
    }
    kept.push(line);
  }
  return { lines: kept, header };
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Marks what was removed until the spaces around it are tidied (a private-use character). */
const GONE = '\uE000';
/** A URL in Markdown `(…)` or an HTML attribute value: no spaces, parentheses or quotes. */
const URL_CHARS = `[^\\s()"'<>]`;
/** pandoc's attribute block after an image or link: `{width="16" height="16"}`, `{.emoticon}`. */
const ATTRS = `(?:\\{[^}]{0,300}\\})?`;
/** A Markdown image; alt text may wrap across lines (pandoc wraps at 72 columns). */
const MD_IMAGE = new RegExp(
  `!\\[([^\\]]*)\\]\\(\\s*<?(${URL_CHARS}+)>?(?:\\s+"[^"]*")?\\s*\\)(${ATTRS})`,
  'g',
);
const HTML_IMAGE = /<img\b[^>]*>/gi;

/** Confluence's document preview: `…/rest/documentConversion/latest/conversion/thumbnail/<attachmentId>/<version>`. */
const THUMBNAIL = /documentConversion\/[^\s()"'<>]*?thumbnail\/(\d+)\//;
/** Confluence's UI images: icons, bullets, content-type badges, emoticons. */
const UI_ICON = /(?:^|\/)images\/icons\//;
/** A person's picture: the default avatar, an uploaded one, Cloud's avatar service. */
const AVATAR = /(?:^|\/)images\/icons\/profilepics\/|\/user-avatar(?:[/?]|$)|\/aa-avatar\//;

interface Image {
  alt: string;
  src: string;
  /** pandoc attributes or the HTML tag: classes, `data-emoticon-name`. */
  extra: string;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeEntities(match[1] ?? match[2]) : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** What becomes of one image: kept (undefined), removed (''), or an emoji. */
function imageChrome(image: Image): string | undefined {
  const { alt, src, extra } = image;
  if (THUMBNAIL.test(src)) return '';
  if (AVATAR.test(src) || /\buserLogo\b/.test(extra) || /^User icon\b/i.test(alt.trim())) return '';
  const emoticon =
    /(?:^|\/)images\/icons\/emoticons\//.test(src) || /\bemoticon\b/.test(extra)
      ? (emoticonEmoji(
          attribute(extra, 'data-emoticon-name'),
          /\bemoticon-([\w-]+)/.exec(extra)?.[1],
          alt,
          src
            .split(/[?#]/)[0]
            .split('/')
            .pop()
            ?.replace(/\.\w+$/, ''),
        ) ?? '')
      : undefined;
  if (emoticon !== undefined) return emoticon;
  return UI_ICON.test(src) ? '' : undefined;
}

/**
 * Removes Confluence's images that are not content — UI icons (`images/icons/…`), people's
 * avatars, document thumbnails the export does not hold — and draws emoticons as emoji. A
 * thumbnail that links to its file (`[![](…/thumbnail/<id>/1)](/download/attachments/<page>/<name>)`)
 * becomes a link to that file in the export (`attachments/<page>/<id>.<ext>`), named by it.
 */
export function dropChromeImages(text: string): string {
  // The marker is a private-use character; a text that holds it already is left alone.
  if (text.includes(GONE)) return text;
  let out = text.replace(LINKED_THUMBNAIL_MD, (_all, mdSrc, tag, href) =>
    fileLink(mdSrc ?? attribute(tag, 'src') ?? '', href),
  );
  out = out.replace(LINKED_THUMBNAIL_HTML, (all, href: string, tag: string) =>
    THUMBNAIL.test(attribute(tag, 'src') ?? '')
      ? fileLink(attribute(tag, 'src')!, href, true)
      : all,
  );
  out = out.replace(MD_IMAGE, (all, alt: string, src: string, attrs: string) => {
    const result = imageChrome({ alt, src, extra: attrs });
    return result === '' ? GONE : (result ?? all);
  });
  out = out.replace(HTML_IMAGE, (tag) => {
    const result = imageChrome({
      alt: attribute(tag, 'alt') ?? '',
      src: attribute(tag, 'src') ?? '',
      extra: tag,
    });
    return result === '' ? GONE : (result ?? tag);
  });
  // Links left empty by a removed avatar or icon (a user link around the picture) go too;
  // where something went, the spaces around it become one.
  return out
    .replace(/\[\s*\uE000*\s*\]\([^)\n]*\)(?:\{[^}]{0,300}\})?/g, GONE)
    .replace(/<a\b[^>]*>\s*\uE000*\s*<\/a>/gi, GONE)
    .replace(/([ \t]?)\uE000+([ \t]?)/g, (_all, before: string, after: string) =>
      before && after ? ' ' : '',
    );
}

const LINKED_THUMBNAIL_MD = new RegExp(
  `\\[\\s*(?:!\\[[^\\]]*\\]\\(\\s*<?(${URL_CHARS}*documentConversion\\/${URL_CHARS}*)>?\\s*\\)${ATTRS}|(<img\\b[^>]*documentConversion\\/[^>]*>))\\s*\\]\\(\\s*<?(${URL_CHARS}+)>?(?:\\s+"[^"]*")?\\s*\\)${ATTRS}`,
  'g',
);
const LINKED_THUMBNAIL_HTML =
  /<a\b[^>]*\bhref\s*=\s*["']([^"']+)["'][^>]*>\s*(<img\b[^>]*>)\s*<\/a>/gi;

/** The link a document thumbnail stands for: the file in the export when its address says which. */
function fileLink(thumbnail: string, rawHref: string, html = false): string {
  const href = decodeEntities(rawHref);
  const attachmentId = THUMBNAIL.exec(thumbnail)?.[1];
  const path = href.split(/[?#]/)[0];
  const name = safeDecode(path.split('/').pop() ?? '') || 'attachment';
  const download = /(?:^|\/)download\/attachments\/(\d+)\/[^/]+$/.exec(path);
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
  const target =
    download && attachmentId ? `attachments/${download[1]}/${attachmentId}${extension}` : href;
  // Inside raw HTML (a table cell) Markdown is not read: the link stays HTML there.
  if (html) return `<a href="${escapeHtml(target)}">${escapeHtml(name)}</a>`;
  return `[${name.replace(/([[\]\\])/g, '\\$1')}](<${target}>)`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
