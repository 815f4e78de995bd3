import { useMemo } from 'react';
import { countChanges, diffLines, sideBySide, splitLines } from '../model/diff';

interface Props {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  mode: 'split' | 'inline';
}

/** A line diff of two texts, side by side or inline, with added and removed lines marked. */
export function DiffView({ before, after, beforeLabel, afterLabel, mode }: Props) {
  const ops = useMemo(() => diffLines(splitLines(before), splitLines(after)), [before, after]);
  const { added, removed } = countChanges(ops);
  const summary =
    added + removed === 0
      ? 'No differences in the text.'
      : `${added} lines added, ${removed} removed.`;
  return (
    <figure className="diff">
      <figcaption className="diff__summary">
        {beforeLabel} → {afterLabel}: {summary}
      </figcaption>
      {mode === 'split' ? (
        <table className="diff__table diff__table--split">
          <colgroup>
            <col className="diff__numcol" />
            <col />
            <col className="diff__numcol" />
            <col />
          </colgroup>
          <thead>
            <tr>
              <th scope="col" colSpan={2}>
                {beforeLabel}
              </th>
              <th scope="col" colSpan={2}>
                {afterLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {sideBySide(ops).map((row, i) => (
              <tr key={i}>
                <td className="diff__num">{row.left?.line ?? ''}</td>
                <td className={row.left?.changed ? 'diff__del' : row.left ? '' : 'diff__empty'}>
                  {row.left?.changed && <span className="visually-hidden">removed: </span>}
                  {row.left?.text ?? ''}
                </td>
                <td className="diff__num">{row.right?.line ?? ''}</td>
                <td className={row.right?.changed ? 'diff__add' : row.right ? '' : 'diff__empty'}>
                  {row.right?.changed && <span className="visually-hidden">added: </span>}
                  {row.right?.text ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <table className="diff__table">
          <colgroup>
            <col className="diff__numcol diff__numcol--wide" />
            <col className="diff__numcol diff__numcol--wide" />
            <col />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">{beforeLabel}</th>
              <th scope="col">{afterLabel}</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {ops.map((op, i) => (
              <tr
                key={i}
                className={op.kind === 'add' ? 'diff__add' : op.kind === 'del' ? 'diff__del' : ''}
              >
                <td className="diff__num">{op.kind !== 'add' ? op.a : ''}</td>
                <td className="diff__num">{op.kind !== 'del' ? op.b : ''}</td>
                <td>
                  <span className="diff__sign" aria-hidden="true">
                    {op.kind === 'add' ? '+' : op.kind === 'del' ? '−' : ' '}
                  </span>
                  {op.kind !== 'same' && (
                    <span className="visually-hidden">
                      {op.kind === 'add' ? 'added: ' : 'removed: '}
                    </span>
                  )}
                  {op.text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
