import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import type { CollabSession } from './use-collab';
import { collapseDoubledMarker, formatChange, type Format } from '../model/markdown-format';
import { isRichPaste, pastedHtmlToMarkdown } from '../paste/paste-html';

export interface MarkdownEditorHandle {
  insert(text: string, at?: number): void;
  format(format: Format): void;
}

/** The toolbar's shortcuts (the buttons name them in `aria-keyshortcuts`). */
export const FORMAT_KEYS: Record<Format, string> = {
  heading: 'Mod-Alt-2',
  bold: 'Mod-b',
  italic: 'Mod-i',
  link: 'Mod-k',
  bullet: 'Mod-Shift-8',
  numbered: 'Mod-Shift-7',
  checklist: 'Mod-Shift-9',
  code: 'Mod-e',
  quote: 'Mod-Shift-.',
  table: 'Mod-Alt-t',
};

function runFormat(view: EditorView, format: Format): boolean {
  view.dispatch(formatChange(view.state, format));
  view.focus();
  return true;
}

const formatKeymap = keymap.of(
  (Object.entries(FORMAT_KEYS) as [Format, string][]).map(([format, key]) => ({
    key,
    run: (view: EditorView) => runFormat(view, format),
    preventDefault: true,
  })),
);

/** A space typed after a continued list marker and the person's own marker keeps one marker. */
const oneListMarker = EditorView.inputHandler.of((view, from, to, text) => {
  if (text !== ' ' || from !== to) return false;
  const line = view.state.doc.lineAt(from);
  const kept = collapseDoubledMarker(view.state.sliceDoc(line.from, from));
  if (kept === null) return false;
  view.dispatch({
    changes: { from: line.from, to: from, insert: kept },
    selection: { anchor: line.from + kept.length },
    userEvent: 'input.type',
  });
  return true;
});

/**
 * HTML on the clipboard (a web page, Word, Google Docs) goes in as Markdown, where the paste
 * happened (or at the cursor, when the text changed while the converter loaded).
 */
function pasteHtml(view: EditorView, html: string): void {
  const { from, to } = view.state.selection.main;
  const pastedInto = view.state.doc;
  void pastedHtmlToMarkdown(html).then((markdown) => {
    const range = view.state.doc === pastedInto ? { from, to } : view.state.selection.main;
    view.dispatch({
      changes: { from: range.from, to: range.to, insert: markdown },
      selection: { anchor: range.from + markdown.length },
      userEvent: 'input.paste',
      scrollIntoView: true,
    });
  });
}

interface Props {
  /** Replaces the text when it changes (resume a draft, take theirs, merge); typing does not. */
  value: string;
  resetKey: number;
  onChange: (text: string) => void;
  /** Files pasted or dropped, with the position they were dropped at. */
  onFiles: (files: File[], at: number) => void;
  handle?: (handle: MarkdownEditorHandle) => void;
  /** A live session: the text is its shared Y.Text (per-person undo, others' cursors). */
  collab?: Pick<CollabSession, 'text' | 'awareness' | 'undoManager'>;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '15px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.6' },
  '.cm-content': { padding: '16px 0' },
  '.cm-line': { padding: '0 16px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-placeholder': { color: 'var(--text-faint)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': {
    backgroundColor: 'var(--accent-soft) !important',
  },
  '.cm-panels': { backgroundColor: 'var(--bg-soft)', color: 'var(--text)' },
});

/** Markdown's marks in the console's own colours, readable in the light and the dark theme. */
const markdownHighlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: tags.monospace, color: 'var(--text-soft)' },
  { tag: tags.quote, color: 'var(--text-soft)' },
  {
    tag: [tags.processingInstruction, tags.meta, tags.contentSeparator],
    color: 'var(--text-faint)',
  },
]);

/** CodeMirror 6 with Markdown, line wrapping, search and undo; named "Content" for everyone. */
export function MarkdownEditor({ value, resetKey, onChange, onFiles, handle, collab }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef({ onChange, onFiles });
  callbacks.current = { onChange, onFiles };

  useEffect(() => {
    const files = (list: FileList | null | undefined) => Array.from(list ?? []);
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: collab ? collab.text.toString() : value,
        extensions: [
          collab
            ? [
                yCollab(collab.text, collab.awareness, { undoManager: collab.undoManager }),
                keymap.of(yUndoManagerKeymap),
              ]
            : history(),
          drawSelection(),
          search({ top: true }),
          highlightSelectionMatches(),
          markdown(),
          syntaxHighlighting(markdownHighlight),
          EditorView.lineWrapping,
          formatKeymap,
          oneListMarker,
          // No Tab binding: Tab leaves the editor, as keyboard users expect.
          keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
          placeholder('Write Markdown here…'),
          theme,
          EditorView.contentAttributes.of({
            'aria-label': 'Content',
            id: 'editor-content',
            spellcheck: 'true',
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.domEventHandlers({
            paste(event, v) {
              const list = files(event.clipboardData?.files);
              const html = event.clipboardData?.getData('text/html') ?? '';
              const plain = event.clipboardData?.getData('text/plain') ?? '';
              if (!list.length && isRichPaste(html, plain)) {
                event.preventDefault();
                pasteHtml(v, html);
                return true;
              }
              if (!list.length) return false;
              event.preventDefault();
              callbacks.current.onFiles(list, v.state.selection.main.head);
              return true;
            },
            drop(event, v) {
              const list = files(event.dataTransfer?.files);
              if (!list.length) return false;
              event.preventDefault();
              const at =
                v.posAtCoords({ x: event.clientX, y: event.clientY }) ??
                v.state.selection.main.head;
              callbacks.current.onFiles(list, at);
              return true;
            },
          }),
        ],
      }),
    });
    view.current = editor;
    handle?.({
      insert(text, at) {
        const position = Math.min(at ?? editor.state.selection.main.head, editor.state.doc.length);
        editor.dispatch({
          changes: { from: position, insert: text },
          selection: { anchor: position + text.length },
        });
      },
      format(format) {
        runFormat(editor, format);
      },
    });
    return () => editor.destroy();
    // The view is made once; `value` is applied by the effect below on each reset.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    // In a live session the shared text is the truth: no reset replaces it.
    if (!editor || collab || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    // Only a reset replaces the text; `value` follows the typing otherwise.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  return <div ref={host} className="code-editor" />;
}
