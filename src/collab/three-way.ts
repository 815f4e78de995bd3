import diff from 'fast-diff';

/** One replacement in a text: `length` characters at `at` become `insert`. */
export interface TextEdit {
  at: number;
  length: number;
  insert: string;
}

/** Where position `p` of `from` lies in the text `changes` turned it into. */
function mapPosition(changes: diff.Diff[], p: number): number {
  let from = 0;
  let to = 0;
  for (const [op, text] of changes) {
    const n = text.length;
    if (op === diff.INSERT) {
      to += n;
    } else if (op === diff.EQUAL) {
      if (p <= from + n) return to + (p - from);
      from += n;
      to += n;
    } else {
      // Deleted in the live text: the position collapses to where the deletion was.
      if (p <= from + n) return to;
      from += n;
    }
  }
  return to + Math.max(0, p - from);
}

/**
 * The change from `base` to `next` (an API write, an import, a restore), as edits of `live`
 * (`base` plus the editors' unsaved typing), last edit first so each applies at positions the
 * earlier ones did not move. Typing outside the changed regions is kept; inside, the write wins.
 */
export function editsOnto(base: string, next: string, live: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let at = 0;
  let pending: { at: number; length: number; insert: string } | null = null;
  const flush = () => {
    if (pending) edits.push(pending);
    pending = null;
  };
  for (const [op, text] of diff(base, next)) {
    if (op === diff.EQUAL) {
      flush();
      at += text.length;
      continue;
    }
    pending ??= { at, length: 0, insert: '' };
    if (op === diff.DELETE) {
      pending.length += text.length;
      at += text.length;
    } else {
      pending.insert += text;
    }
  }
  flush();
  const live2 = base === live ? null : diff(base, live);
  return edits
    .map((edit) => {
      if (!live2) return edit;
      const start = mapPosition(live2, edit.at);
      const end = Math.max(start, mapPosition(live2, edit.at + edit.length));
      return { at: start, length: end - start, insert: edit.insert };
    })
    .reverse();
}
