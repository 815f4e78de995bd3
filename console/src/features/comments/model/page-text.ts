/**
 * The page's text as the API anchors comments in it (src/comments/anchoring.ts): the rendered
 * page's text nodes, every run of whitespace one space, trimmed — leaving out what the console
 * adds to the page (code block gutters and buttons) and comment highlights' own markup.
 */
export interface PageText {
  text: string;
  /** The text node and offset of each character of `text`. */
  points: [Text, number][];
}

const ADDED_BY_CONSOLE = '.code-block__gutter, .code-block__actions, button, textarea';

export function readPageText(root: HTMLElement): PageText {
  const points: [Text, number][] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest(ADDED_BY_CONSOLE)
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const data = node.data;
    for (let i = 0; i < data.length; i++) {
      if (/\s/.test(data[i])) {
        if (text.length === 0 || text.endsWith(' ')) continue;
        text += ' ';
      } else text += data[i];
      points.push([node, i]);
    }
  }
  if (text.endsWith(' ')) {
    text = text.slice(0, -1);
    points.pop();
  }
  return { text, points };
}

/** The character index in `page.text` at or after a DOM point; -1 when it is not in the page. */
export function indexOfPoint(page: PageText, node: Node, offset: number): number {
  let best = -1;
  // Characters are in document order: the first one not before the point.
  let low = 0;
  let high = page.points.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [text, at] = page.points[mid];
    const order = comparePoints(text, at, node, offset);
    if (order >= 0) {
      best = mid;
      high = mid - 1;
    } else low = mid + 1;
  }
  return best === -1 ? page.text.length : best;
}

function comparePoints(a: Node, aOffset: number, b: Node, bOffset: number): number {
  if (a === b) return aOffset - bOffset;
  const range = document.createRange();
  range.setStart(a, aOffset);
  return -range.comparePoint(b, bOffset);
}
