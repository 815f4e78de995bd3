import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';

/**
 * Ctrl/Cmd+K in the editor: makes each selection a Markdown link `[text](url)` and selects
 * `url` to type over (an empty selection gives `[](url)` with the cursor on the text).
 */
export function makeLink(view: EditorView): boolean {
  const changes = view.state.changeByRange((range) => {
    const text = view.state.sliceDoc(range.from, range.to);
    const insert = `[${text}](url)`;
    const urlStart = range.from + text.length + 3;
    return {
      changes: { from: range.from, to: range.to, insert },
      range:
        text === ''
          ? EditorSelection.cursor(range.from + 1)
          : EditorSelection.range(urlStart, urlStart + 3),
    };
  });
  view.dispatch(view.state.update(changes, { scrollIntoView: true, userEvent: 'input' }));
  return true;
}
