/**
 * The browser's stand-in for src/import/sources/dom.ts when the console bundles the server's
 * HTML → Markdown conversion (vite.config.mts, `serverHtmlToMarkdown`): the browser's own
 * DOMParser instead of @mixmark-io/domino, which turndown's browser build does not need either.
 */
export type DomNode = Node;
export type DomElement = Element;
export type DomDocument = Document;

export function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

export function all(
  root: { querySelectorAll(selector: string): ArrayLike<Element> },
  selector: string,
): Element[] {
  return Array.from(root.querySelectorAll(selector));
}
