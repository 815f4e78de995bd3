import { EditorSelection, EditorState, type TransactionSpec } from '@codemirror/state';

/** The editor toolbar's formats (the image button uploads a file instead). */
export type Format =
  | 'heading'
  | 'bold'
  | 'italic'
  | 'link'
  | 'bullet'
  | 'numbered'
  | 'checklist'
  | 'code'
  | 'quote'
  | 'table';

const INLINE: Partial<Record<Format, [string, string, string]>> = {
  bold: ['**', '**', 'bold text'],
  italic: ['_', '_', 'italic text'],
  code: ['`', '`', 'code'],
};

const LINE_PREFIX: Partial<Record<Format, RegExp>> = {
  heading: /^#{1,6} /,
  bullet: /^[-*+] (?!\[[ xX]\] )/,
  numbered: /^\d+[.)] /,
  checklist: /^[-*+] \[[ xX]\] /,
  quote: /^> ?/,
};

const TABLE = '| Column | Column |\n| --- | --- |\n| Cell | Cell |\n';

function prefixFor(format: Format, index: number): string {
  switch (format) {
    case 'heading':
      return '## ';
    case 'numbered':
      return `${index + 1}. `;
    case 'checklist':
      return '- [ ] ';
    case 'quote':
      return '> ';
    default:
      return '- ';
  }
}

/** Any list or quote marker a line starts with, so a line changes from one list kind to another. */
const ANY_MARKER = /^(?:[-*+] \[[ xX]\] |[-*+] |\d+[.)] |> ?|#{1,6} )/;

/** Adds the format's marker to every selected line, or takes it away when all have it. */
function toggleLines(state: EditorState, format: Format): TransactionSpec {
  const range = state.selection.main;
  const first = state.doc.lineAt(range.from).number;
  const last = state.doc.lineAt(range.to).number;
  const lines = Array.from({ length: last - first + 1 }, (_, i) => state.doc.line(first + i));
  const pattern = LINE_PREFIX[format]!;
  const remove = lines.every((line) => pattern.test(line.text));
  const changes = lines.map((line, i) => {
    const existing = (remove ? pattern : ANY_MARKER).exec(line.text)?.[0] ?? '';
    const insert = remove ? '' : prefixFor(format, i);
    return { from: line.from, to: line.from + existing.length, insert };
  });
  return { changes, scrollIntoView: true };
}

/** Wraps the selection (or a placeholder, then selected) in the format's delimiters. */
function wrap(state: EditorState, before: string, after: string, placeholder: string) {
  return state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to);
    if (
      text.length >= before.length + after.length &&
      text.startsWith(before) &&
      text.endsWith(after)
    ) {
      const inner = text.slice(before.length, text.length - after.length);
      return {
        changes: { from: range.from, to: range.to, insert: inner },
        range: EditorSelection.range(range.from, range.from + inner.length),
      };
    }
    const inner = text || placeholder;
    return {
      changes: { from: range.from, to: range.to, insert: `${before}${inner}${after}` },
      range: EditorSelection.range(
        range.from + before.length,
        range.from + before.length + inner.length,
      ),
    };
  });
}

/** `[text](url)` around the selection, with `url` selected to be typed over. */
function link(state: EditorState): TransactionSpec {
  return state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to) || 'link text';
    const insert = `[${text}](url)`;
    const urlAt = range.from + text.length + 3;
    return {
      changes: { from: range.from, to: range.to, insert },
      range: EditorSelection.range(urlAt, urlAt + 3),
    };
  });
}

/** A code block around several lines, inline code otherwise. */
function code(state: EditorState): TransactionSpec {
  const range = state.selection.main;
  if (state.doc.lineAt(range.from).number === state.doc.lineAt(range.to).number)
    return wrap(state, ...INLINE.code!);
  const from = state.doc.lineAt(range.from).from;
  const to = state.doc.lineAt(range.to).to;
  return {
    changes: [
      { from, insert: '```\n' },
      { from: to, insert: '\n```' },
    ],
  };
}

/** A small table on a line of its own after the cursor's line. */
function table(state: EditorState): TransactionSpec {
  const line = state.doc.lineAt(state.selection.main.head);
  const before = line.text.trim() === '' ? '' : '\n\n';
  const insert = `${before}${TABLE}`;
  const at = line.text.trim() === '' ? line.from : line.to;
  return {
    changes: { from: at, to: line.text.trim() === '' ? line.to : at, insert },
    selection: EditorSelection.range(at + before.length + 2, at + before.length + 8),
    scrollIntoView: true,
  };
}

/** The change a toolbar button (or its shortcut) makes to the text. */
export function formatChange(state: EditorState, format: Format): TransactionSpec {
  const inline = INLINE[format];
  if (format === 'code') return code(state);
  if (inline) return wrap(state, ...inline);
  if (format === 'link') return link(state);
  if (format === 'table') return table(state);
  return toggleLines(state, format);
}

const DOUBLED = /^(\s*)(?:[-*+]|\d+[.)])(?: \[[ xX]\])? ([-*+]|\d+[.)])$/;

/**
 * List continuation never doubles a marker: after Enter the new line already starts with `- `
 * (or `2. `); a person typing their own `- ` on it would get `- - `. Given the line up to the
 * cursor as a space is typed, the line start to keep instead (their marker), or null.
 */
export function collapseDoubledMarker(lineBeforeCursor: string): string | null {
  const match = DOUBLED.exec(lineBeforeCursor);
  return match ? `${match[1]}${match[2]} ` : null;
}
