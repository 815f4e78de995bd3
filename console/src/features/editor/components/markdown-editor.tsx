import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { makeLink } from '../model/link-command';

export interface MarkdownEditorHandle {
  insert(text: string, at?: number): void;
}

interface Props {
  /** Replaces the text when it changes (resume a draft, take theirs, merge); typing does not. */
  value: string;
  resetKey: number;
  onChange: (text: string) => void;
  /** Files pasted or dropped, with the position they were dropped at. */
  onFiles: (files: File[], at: number) => void;
  handle?: (handle: MarkdownEditorHandle) => void;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '15px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.6' },
  '.cm-content': { padding: '16px 0' },
  '.cm-line': { padding: '0 16px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-placeholder': { color: '#5f6770' },
});

/** CodeMirror 6 with Markdown, line wrapping, search and undo; named "Content" for everyone. */
export function MarkdownEditor({ value, resetKey, onChange, onFiles, handle }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef({ onChange, onFiles });
  callbacks.current = { onChange, onFiles };

  useEffect(() => {
    const files = (list: FileList | null | undefined) => Array.from(list ?? []);
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          drawSelection(),
          search({ top: true }),
          highlightSelectionMatches(),
          markdown(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          // No Tab binding: Tab leaves the editor, as keyboard users expect.
          keymap.of([
            { key: 'Mod-k', run: makeLink, preventDefault: true },
            ...defaultKeymap,
            ...historyKeymap,
            ...searchKeymap,
          ]),
          placeholder('Write Markdown here…'),
          theme,
          EditorView.contentAttributes.of({ 'aria-label': 'Content', spellcheck: 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.domEventHandlers({
            paste(event, v) {
              const list = files(event.clipboardData?.files);
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
    });
    return () => editor.destroy();
    // The view is made once; `value` is applied by the effect below on each reset.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    // Only a reset replaces the text; `value` follows the typing otherwise.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  return <div ref={host} className="code-editor" />;
}
