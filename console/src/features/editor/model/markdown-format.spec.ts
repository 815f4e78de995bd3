import { EditorSelection, EditorState } from '@codemirror/state';
import { collapseDoubledMarker, formatChange, type Format } from './markdown-format';

function apply(doc: string, from: number, to: number, format: Format) {
  const state = EditorState.create({ doc, selection: EditorSelection.range(from, to) });
  const next = state.update(formatChange(state, format)).state;
  const sel = next.selection.main;
  return { text: next.doc.toString(), selected: next.sliceDoc(sel.from, sel.to) };
}

describe('editor toolbar formats', () => {
  it('wraps the selection, or a placeholder to type over, and unwraps it again', () => {
    expect(apply('say hi', 4, 6, 'bold')).toEqual({ text: 'say **hi**', selected: 'hi' });
    expect(apply('say ', 4, 4, 'italic')).toEqual({
      text: 'say _italic text_',
      selected: 'italic text',
    });
    expect(apply('say **hi**', 4, 10, 'bold')).toEqual({ text: 'say hi', selected: 'hi' });
    expect(apply('run ls', 4, 6, 'code')).toEqual({ text: 'run `ls`', selected: 'ls' });
  });

  it('makes a link with the address selected', () => {
    expect(apply('see docs', 4, 8, 'link')).toEqual({ text: 'see [docs](url)', selected: 'url' });
  });

  it('puts a marker on every selected line, switching list kinds, and takes it off', () => {
    expect(apply('a\nb', 0, 3, 'bullet').text).toBe('- a\n- b');
    expect(apply('a\nb', 0, 3, 'numbered').text).toBe('1. a\n2. b');
    expect(apply('- a\n- b', 0, 7, 'checklist').text).toBe('- [ ] a\n- [ ] b');
    expect(apply('- a\n- b', 0, 7, 'bullet').text).toBe('a\nb');
    expect(apply('Title', 0, 0, 'heading').text).toBe('## Title');
    expect(apply('## Title', 0, 0, 'heading').text).toBe('Title');
    expect(apply('said', 0, 0, 'quote').text).toBe('> said');
  });

  it('fences several lines as a code block and inserts a table on a line of its own', () => {
    expect(apply('a\nb', 0, 3, 'code').text).toBe('```\na\nb\n```');
    expect(apply('text', 4, 4, 'table').text).toBe(
      'text\n\n| Column | Column |\n| --- | --- |\n| Cell | Cell |\n',
    );
  });
});

describe('list continuation', () => {
  it('keeps one marker when a person types their own after the continued one', () => {
    expect(collapseDoubledMarker('- -')).toBe('- ');
    expect(collapseDoubledMarker('  * *')).toBe('  * ');
    expect(collapseDoubledMarker('2. 2.')).toBe('2. ');
    expect(collapseDoubledMarker('- [ ] -')).toBe('- ');
    expect(collapseDoubledMarker('- a -')).toBeNull();
    expect(collapseDoubledMarker('-')).toBeNull();
  });
});
