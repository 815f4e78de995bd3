import { useMemo } from 'react';
import {
  countChanges,
  diffLines,
  sideBySide,
  splitLines,
  type DiffOp,
  type SideBySideRow,
} from '../model/diff';

interface Props {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  mode: 'split' | 'inline';
}

type Labels = Pick<Props, 'beforeLabel' | 'afterLabel'>;

/** One side of a side-by-side row: its line number and text, or an empty cell. */
function SideCells({
  side,
  changedClass,
  changedWord,
}: {
  side: SideBySideRow['left'];
  changedClass: string;
  changedWord: string;
}) {
  return (
    <>
      <td className="diff__num">{side?.line ?? ''}</td>
      <td className={side?.changed ? changedClass : side ? '' : 'diff__empty'}>
        {side?.changed && <span className="visually-hidden">{changedWord}: </span>}
        {side?.text ?? ''}
      </td>
    </>
  );
}

/** Before on the left, after on the right; changed lines face each other. */
function SplitDiff({ ops, beforeLabel, afterLabel }: Labels & { ops: DiffOp[] }) {
  return (
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
            <SideCells side={row.left} changedClass="diff__del" changedWord="removed" />
            <SideCells side={row.right} changedClass="diff__add" changedWord="added" />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const ROW_CLASS = { add: 'diff__add', del: 'diff__del', same: '' } as const;
const SIGN = { add: '+', del: '−', same: ' ' } as const;

/** One column of text, each line numbered before and after, removed and added lines marked. */
function InlineDiff({ ops, beforeLabel, afterLabel }: Labels & { ops: DiffOp[] }) {
  return (
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
          <tr key={i} className={ROW_CLASS[op.kind]}>
            <td className="diff__num">{op.kind !== 'add' ? op.a : ''}</td>
            <td className="diff__num">{op.kind !== 'del' ? op.b : ''}</td>
            <td>
              <span className="diff__sign" aria-hidden="true">
                {SIGN[op.kind]}
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
  );
}

/** A line diff of two texts, side by side or inline, with added and removed lines marked. */
export function DiffView({ before, after, beforeLabel, afterLabel, mode }: Props) {
  const ops = useMemo(() => diffLines(splitLines(before), splitLines(after)), [before, after]);
  const { added, removed } = countChanges(ops);
  const summary =
    added + removed === 0
      ? 'No differences in the text.'
      : `${added} lines added, ${removed} removed.`;
  const Diff = mode === 'split' ? SplitDiff : InlineDiff;
  return (
    <figure className="diff">
      <figcaption className="diff__summary">
        {beforeLabel} → {afterLabel}: {summary}
      </figcaption>
      <Diff ops={ops} beforeLabel={beforeLabel} afterLabel={afterLabel} />
    </figure>
  );
}
