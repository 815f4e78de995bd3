/**
 * The browser's stand-in for sanitize-html (which needs Node's postcss) in the server's HTML →
 * Markdown conversion: the conversion asks it only to keep a complex table as plain HTML with an
 * allow-list of tags and attributes. Elements not allowed are unwrapped (their text kept), except
 * those whose content is never text; attributes not allowed are dropped. The server sanitises
 * whatever the page finally holds again when it renders it.
 */
interface Options {
  allowedTags?: string[] | false;
  allowedAttributes?: Record<string, string[]> | false;
}

const DROPPED = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED', 'NOSCRIPT']);

function clean(node: Element, tags: Set<string>, attributes: Record<string, string[]>): void {
  for (const child of Array.from(node.children)) {
    if (DROPPED.has(child.tagName)) {
      child.remove();
      continue;
    }
    clean(child, tags, attributes);
    const tag = child.tagName.toLowerCase();
    if (!tags.has(tag)) {
      child.replaceWith(...Array.from(child.childNodes));
      continue;
    }
    const allowed = new Set([...(attributes[tag] ?? []), ...(attributes['*'] ?? [])]);
    for (const name of child.getAttributeNames()) {
      const value = child.getAttribute(name) ?? '';
      if (!allowed.has(name) || /^\s*(javascript|vbscript|data):/i.test(value))
        child.removeAttribute(name);
    }
  }
}

export default function sanitizeHtml(html: string, options: Options = {}): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const tags = new Set(options.allowedTags || []);
  clean(doc.body, tags, options.allowedAttributes || {});
  return doc.body.innerHTML;
}
