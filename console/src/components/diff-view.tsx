import { Fragment, useMemo, useState, type ReactNode } from 'react';
import {
  changeSummary,
  countChanges,
  diffLines,
  foldUnchanged,
  sideBySide,
  splitLines,
  type DiffChunk,
  type DiffOp,
  type SideBySideRow,
} from '../lib/diff';

/**
 * What a caller adds to the lines of an inline diff (review comments): an action at the end of
 * each line, rows below a line, and which lines folding must leave shown.
 */
export interface DiffAnnotations {
  action: (op: DiffOp) => ReactNode;
  below: (op: DiffOp) => ReactNode;
  keep: (op: DiffOp) => boolean;
}

interface Props {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  mode: 'split' | 'inline';
  /** Inline mode only. */
  annotations?: DiffAnnotations;
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

/** The row standing for folded unchanged lines: a button that shows them. */
function FoldRow({ ops, columns, onOpen }: { ops: DiffOp[]; columns: number; onOpen: () => void }) {
  const first = ops[0] as Extract<DiffOp, { kind: 'same' }>;
  const last = ops[ops.length - 1] as Extract<DiffOp, { kind: 'same' }>;
  return (
    <tr className="diff__fold">
      <td colSpan={columns}>
        <button type="button" className="diff__fold-button" onClick={onOpen}>
          Show {ops.length} unchanged lines ({first.b}–{last.b})
        </button>
      </td>
    </tr>
  );
}

/** The chunks' rows: folded chunks as a FoldRow until opened, the others by `rows`. */
function ChunkRows({
  chunks,
  columns,
  rows,
}: {
  chunks: DiffChunk[];
  columns: number;
  rows: (ops: DiffOp[], key: string) => ReactNode;
}) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  return chunks.map((chunk, i) =>
    chunk.kind === 'folded' && !open.has(chunk.id) ? (
      <FoldRow
        key={`fold-${chunk.id}`}
        ops={chunk.ops}
        columns={columns}
        onOpen={() => setOpen((s) => new Set(s).add(chunk.id))}
      />
    ) : (
      rows(chunk.ops, String(i))
    ),
  );
}

/** Before on the left, after on the right; changed lines face each other. */
function SplitDiff({ chunks, beforeLabel, afterLabel }: Labels & { chunks: DiffChunk[] }) {
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
        <ChunkRows
          chunks={chunks}
          columns={4}
          rows={(ops, key) =>
            sideBySide(ops).map((row, i) => (
              <tr key={`${key}-${i}`}>
                <SideCells side={row.left} changedClass="diff__del" changedWord="removed" />
                <SideCells side={row.right} changedClass="diff__add" changedWord="added" />
              </tr>
            ))
          }
        />
      </tbody>
    </table>
  );
}

/** "Revision 2", shown as "#2" where the line-number column is narrow (a phone). */
function NumberHeader({ label }: { label: string }) {
  return (
    <>
      <span className="diff__label-long">{label}</span>
      <span className="diff__label-short" aria-hidden="true">
        {label.replace(/^Revision /, '#')}
      </span>
    </>
  );
}

const ROW_CLASS = { add: 'diff__add', del: 'diff__del', same: '' } as const;
const SIGN = { add: '+', del: '−', same: ' ' } as const;

/** One column of text, each line numbered before and after, removed and added lines marked. */
function InlineDiff({
  chunks,
  beforeLabel,
  afterLabel,
  annotations,
}: Labels & { chunks: DiffChunk[]; annotations?: DiffAnnotations }) {
  return (
    <table className="diff__table">
      <colgroup>
        <col className="diff__numcol diff__numcol--wide" />
        <col className="diff__numcol diff__numcol--wide" />
        <col />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">
            <NumberHeader label={beforeLabel} />
          </th>
          <th scope="col">
            <NumberHeader label={afterLabel} />
          </th>
          <th scope="col">Text</th>
        </tr>
      </thead>
      <tbody>
        <ChunkRows
          chunks={chunks}
          columns={3}
          rows={(ops, key) =>
            ops.map((op, i) => {
              const below = annotations?.below(op);
              return (
                <Fragment key={`${key}-${i}`}>
                  <tr className={ROW_CLASS[op.kind]}>
                    <td className="diff__num">{op.kind !== 'add' ? op.a : ''}</td>
                    <td className="diff__num">{op.kind !== 'del' ? op.b : ''}</td>
                    <td className={annotations ? 'diff__text diff__text--annotated' : undefined}>
                      <span className="diff__sign" aria-hidden="true">
                        {SIGN[op.kind]}
                      </span>
                      {op.kind !== 'same' && (
                        <span className="visually-hidden">
                          {op.kind === 'add' ? 'added: ' : 'removed: '}
                        </span>
                      )}
                      {op.text}
                      {annotations?.action(op)}
                    </td>
                  </tr>
                  {below && (
                    <tr className="diff__below">
                      <td colSpan={3}>{below}</td>
                    </tr>
                  )}
                </Fragment>
              );
            })
          }
        />
      </tbody>
    </table>
  );
}

/**
 * A line diff of two texts, side by side or inline, with added and removed lines marked and
 * unchanged lines more than three away from a change folded behind a button.
 */
export function DiffView({ before, after, beforeLabel, afterLabel, mode, annotations }: Props) {
  const ops = useMemo(() => diffLines(splitLines(before), splitLines(after)), [before, after]);
  const keep = annotations?.keep;
  const chunks = useMemo(() => foldUnchanged(ops, 3, keep), [ops, keep]);
  const summary = changeSummary(countChanges(ops));
  return (
    <figure className="diff">
      <figcaption className="diff__summary">
        {beforeLabel} → {afterLabel}: {summary}
      </figcaption>
      {mode === 'split' ? (
        <SplitDiff
          key={`${beforeLabel}→${afterLabel}`}
          chunks={chunks}
          beforeLabel={beforeLabel}
          afterLabel={afterLabel}
        />
      ) : (
        <InlineDiff
          key={`${beforeLabel}→${afterLabel}`}
          chunks={chunks}
          beforeLabel={beforeLabel}
          afterLabel={afterLabel}
          annotations={annotations}
        />
      )}
    </figure>
  );
}
