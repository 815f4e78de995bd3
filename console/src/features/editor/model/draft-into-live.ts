import diff from 'fast-diff';

/** One replacement in a text: `length` characters at `at` become `insert`. */
export interface TextEdit {
  at: number;
  length: number;
  insert: string;
}

/** Where position `p` of the text `changes` start from lies in the text they end in. */
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
      if (p <= from + n) return to;
      from += n;
    }
  }
  return to + Math.max(0, p - from);
}

/**
 * An old draft brought into a live session (issue 30): the change the draft made to the
 * revision it started from (`base` to `draft`), as edits of the shared text `live` (that
 * revision plus everything saved and typed since), last edit first so each applies at positions
 * the earlier ones did not move. What others wrote outside the draft's changes stays; where
 * both changed the same text, the draft's change replaces that region (the server applies an
 * API write to a live session the same way, src/collab/three-way.ts).
 */
export function draftEdits(base: string, draft: string, live: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let at = 0;
  let pending: TextEdit | null = null;
  for (const [op, text] of diff(base, draft)) {
    if (op === diff.EQUAL) {
      if (pending) edits.push(pending);
      pending = null;
      at += text.length;
      continue;
    }
    pending ??= { at, length: 0, insert: '' };
    if (op === diff.DELETE) {
      pending.length += text.length;
      at += text.length;
    } else pending.insert += text;
  }
  if (pending) edits.push(pending);
  if (base === live) return edits.reverse();
  const onto = diff(base, live);
  return edits
    .map((edit) => {
      const start = mapPosition(onto, edit.at);
      const end = Math.max(start, mapPosition(onto, edit.at + edit.length));
      return { at: start, length: end - start, insert: edit.insert };
    })
    .reverse();
}
