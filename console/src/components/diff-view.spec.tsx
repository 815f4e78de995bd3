/** @jest-environment ./test/support/component-environment.js */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DiffView } from './diff-view';

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${from + i}`);

afterEach(cleanup);

describe('DiffView', () => {
  it('says what changed and marks removed and added lines for screen readers (inline)', () => {
    render(
      <DiffView
        before={'keep\nold words\nkeep too'}
        after={'keep\nnew words\nkeep too\nmore'}
        beforeLabel="Revision 1"
        afterLabel="Revision 2"
        mode="inline"
      />,
    );
    const figure = screen.getByRole('figure');
    expect(within(figure).getByText(/^Revision 1 → Revision 2:/).textContent).toBe(
      'Revision 1 → Revision 2: 2 lines added, 1 removed.',
    );
    const rows = within(figure).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '11 keep',
      '2−removed: old words',
      '2+added: new words',
      '33 keep too',
      '4+added: more',
    ]);
    expect(rows[1].className).toBe('diff__del');
    expect(rows[2].className).toBe('diff__add');
  });

  it('puts changed lines face to face side by side, under both labels', () => {
    render(
      <DiffView
        before={'a\nb'}
        after={'a\nc'}
        beforeLabel="Mine"
        afterLabel="Theirs"
        mode="split"
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Mine',
      'Theirs',
    ]);
    const changed = screen.getAllByRole('row')[2];
    expect(
      within(changed)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', 'removed: b', '2', 'added: c']);
  });

  it('folds unchanged lines far from a change behind a button that shows them', async () => {
    const before = [...lines(20), 'changed'].join('\n');
    const after = [...lines(20), 'edited'].join('\n');
    render(
      <DiffView before={before} after={after} beforeLabel="Old" afterLabel="New" mode="inline" />,
    );
    const fold = screen.getByRole('button', { name: /^Show 17 unchanged lines \(1–17\)$/ });
    expect(screen.queryByText('line 1')).toBeNull();
    expect(screen.getByText('line 18')).toBeTruthy();

    await userEvent.click(fold);
    expect(screen.queryByRole('button', { name: /unchanged lines/ })).toBeNull();
    expect(screen.getByText('line 1')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(1 + 20 + 2);
  });
});
