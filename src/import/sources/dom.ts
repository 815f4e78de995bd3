/**
 * The few DOM members the HTML converters use (the project compiles without the DOM lib;
 * @mixmark-io/domino, turndown's own parser, provides the implementation).
 */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  tagName: string;
  ownerDocument: DomDocument;
  id: string;
  className: string;
  innerHTML: string;
  firstChild: DomNode | null;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
  outerHTML: string;
  children: ArrayLike<DomElement>;
  parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  matches(selector: string): boolean;
  remove(): void;
  replaceWith(...nodes: (DomNode | string)[]): void;
  appendChild(node: DomNode): DomNode;
  insertBefore(node: DomNode, before: DomNode | null): DomNode;
  classList: { contains(name: string): boolean };
}

export interface DomDocument {
  body: DomElement;
  title: string;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getElementById(id: string): DomElement | null;
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomNode;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const domino = require('@mixmark-io/domino') as {
  createDocument(html: string, force?: boolean): DomDocument;
};

export function parseHtml(html: string): DomDocument {
  return domino.createDocument(html, true);
}

export function all(
  root: { querySelectorAll(selector: string): ArrayLike<DomElement> },
  selector: string,
): DomElement[] {
  return Array.from(root.querySelectorAll(selector));
}
