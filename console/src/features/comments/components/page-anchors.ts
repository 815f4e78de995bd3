import { useEffect, useState, type RefObject } from 'react';
import { findSpan } from '../model/anchors';
import { indexOfPoint, readPageText, type PageText } from '../model/page-text';

const MARK_CLASS = 'comment-anchor';
const CONTEXT = 64;

export interface NewAnchor {
  quote: string;
  prefix: string;
  suffix: string;
  start: number;
}

export interface Highlight {
  threadId: string;
  anchor: { quote: string; start: number; end: number };
}

/** The rendered page (PageHtml's `.prose`) inside the page content. */
function proseOf(content: HTMLElement | null): HTMLElement | null {
  return content?.querySelector<HTMLElement>('.prose') ?? null;
}

function clearMarks(root: HTMLElement): void {
  const marks = root.querySelectorAll(`mark.${MARK_CLASS}`);
  if (marks.length === 0) return;
  for (const mark of marks) mark.replaceWith(...mark.childNodes);
  root.normalize();
}

/** Wraps the characters [start, end) of the text in marks, one per text node they cross. */
function wrap(page: PageText, start: number, end: number, threadId: string): void {
  const segments: { node: Text; from: number; to: number }[] = [];
  for (let i = start; i < end; i++) {
    const [node, offset] = page.points[i];
    const last = segments[segments.length - 1];
    if (last && last.node === node) last.to = offset + 1;
    else segments.push({ node, from: offset, to: offset + 1 });
  }
  // Last first, so the offsets of earlier segments in a node stay valid.
  for (const { node, from, to } of segments.reverse()) {
    if (node.data.slice(from, to).trim() === '') continue;
    const middle = node.splitText(from);
    middle.splitText(to - from);
    const mark = document.createElement('mark');
    mark.className = MARK_CLASS;
    mark.dataset.thread = threadId;
    middle.replaceWith(mark);
    mark.append(middle);
  }
}

/**
 * Marks the passages of open inline threads in the page (again whenever the page's HTML or
 * the threads change) and marks the active one.
 */
export function useHighlights(
  content: RefObject<HTMLElement | null>,
  html: string,
  highlights: Highlight[],
  active: string | null,
): void {
  const key = JSON.stringify(highlights);
  useEffect(() => {
    const root = proseOf(content.current);
    if (!root) return;
    clearMarks(root);
    for (const { threadId, anchor } of highlights) {
      const page = readPageText(root);
      const span = findSpan(page.text, anchor);
      if (span) wrap(page, span.start, span.end, threadId);
    }
    return () => clearMarks(root);
    // `key` stands for the highlights' contents.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [content, html, key]);

  useEffect(() => {
    const root = proseOf(content.current);
    if (!root) return;
    for (const mark of root.querySelectorAll<HTMLElement>(`mark.${MARK_CLASS}`))
      mark.classList.toggle(`${MARK_CLASS}--active`, mark.dataset.thread === active);
  }, [content, html, key, active]);
}

/** The thread whose highlight was clicked in the page. */
export function useHighlightClicks(
  content: RefObject<HTMLElement | null>,
  onClick: (threadId: string) => void,
): void {
  useEffect(() => {
    const root = content.current;
    if (!root) return;
    const listener = (event: MouseEvent) => {
      const mark = (event.target as Element).closest?.(`mark.${MARK_CLASS}`);
      if (mark instanceof HTMLElement && mark.dataset.thread) onClick(mark.dataset.thread);
    };
    root.addEventListener('click', listener);
    return () => root.removeEventListener('click', listener);
  }, [content, onClick]);
}

export function scrollToHighlight(content: HTMLElement | null, threadId: string): void {
  const mark = proseOf(content)?.querySelector<HTMLElement>(
    `mark.${MARK_CLASS}[data-thread="${CSS.escape(threadId)}"]`,
  );
  mark?.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

export interface TextSelection {
  anchor: NewAnchor;
  /** Where to offer "Comment": below the selection's end, in viewport coordinates. */
  top: number;
  left: number;
}

/** A selection of text in the page, as an anchor for a new inline thread (null when none). */
export function useTextSelection(
  content: RefObject<HTMLElement | null>,
): [TextSelection | null, () => void] {
  const [selection, setSelection] = useState<TextSelection | null>(null);
  useEffect(() => {
    const root = content.current;
    if (!root) return;
    const read = () => {
      const prose = proseOf(root);
      const current = window.getSelection();
      if (!prose || !current || current.isCollapsed || current.rangeCount === 0) {
        setSelection(null);
        return;
      }
      const range = current.getRangeAt(0);
      if (!prose.contains(range.commonAncestorContainer)) {
        setSelection(null);
        return;
      }
      const page = readPageText(prose);
      let start = indexOfPoint(page, range.startContainer, range.startOffset);
      let end = indexOfPoint(page, range.endContainer, range.endOffset);
      while (start < end && page.text[start] === ' ') start++;
      while (end > start && page.text[end - 1] === ' ') end--;
      if (end <= start) {
        setSelection(null);
        return;
      }
      const rect = range.getBoundingClientRect();
      setSelection({
        anchor: {
          quote: page.text.slice(start, end).slice(0, 1000),
          prefix: page.text.slice(Math.max(0, start - CONTEXT), start),
          suffix: page.text.slice(end, end + CONTEXT),
          start,
        },
        top: rect.bottom + 6,
        left: Math.max(8, Math.min(rect.left, window.innerWidth - 120)),
      });
    };
    const onUp = () => window.setTimeout(read, 0);
    const clear = () => setSelection(null);
    root.addEventListener('mouseup', onUp);
    root.addEventListener('keyup', onUp);
    window.addEventListener('scroll', clear, true);
    return () => {
      root.removeEventListener('mouseup', onUp);
      root.removeEventListener('keyup', onUp);
      window.removeEventListener('scroll', clear, true);
    };
  }, [content]);
  return [selection, () => setSelection(null)];
}
