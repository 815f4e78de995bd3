/** One line of a line diff: kept, removed (only in `a`) or added (only in `b`). */
export type DiffOp =
  | { kind: 'same'; a: number; b: number; text: string }
  | { kind: 'del'; a: number; text: string }
  | { kind: 'add'; b: number; text: string };

export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
}

/**
 * Myers' O(ND) shortest edit script over lines, so a one-line change in a long page costs
 * little. Line numbers in the result are 1-based.
 */
export function diffLines(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = max === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the saved frontiers.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const frontier = trace[d];
    const k = x - y;
    const prevK =
      k === -d || (k !== d && frontier[offset + k - 1] < frontier[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : frontier[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: 'same', a: x, b: y, text: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: 'add', b: y, text: b[y - 1] });
      else ops.push({ kind: 'del', a: x, text: a[x - 1] });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export interface SideBySideRow {
  left: { line: number; text: string; changed: boolean } | null;
  right: { line: number; text: string; changed: boolean } | null;
}

/** Pairs removed and added lines of each change so they sit side by side. */
export function sideBySide(ops: DiffOp[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let dels: Extract<DiffOp, { kind: 'del' }>[] = [];
  let adds: Extract<DiffOp, { kind: 'add' }>[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      const d = dels[i];
      const a = adds[i];
      rows.push({
        left: d ? { line: d.a, text: d.text, changed: true } : null,
        right: a ? { line: a.b, text: a.text, changed: true } : null,
      });
    }
    dels = [];
    adds = [];
  };
  for (const op of ops) {
    if (op.kind === 'del') dels.push(op);
    else if (op.kind === 'add') adds.push(op);
    else {
      flush();
      rows.push({
        left: { line: op.a, text: op.text, changed: false },
        right: { line: op.b, text: op.text, changed: false },
      });
    }
  }
  flush();
  return rows;
}

export function countChanges(ops: DiffOp[]): { added: number; removed: number } {
  return {
    added: ops.filter((o) => o.kind === 'add').length,
    removed: ops.filter((o) => o.kind === 'del').length,
  };
}

/** A run of a diff: lines shown, or unchanged lines folded away (expandable). */
export type DiffChunk =
  { kind: 'shown'; ops: DiffOp[] } | { kind: 'folded'; id: number; ops: DiffOp[] };

/**
 * Folds unchanged lines more than `context` lines away from any change (or from a line `keep`
 * holds shown: one with comments). A fold shorter than two lines is not worth a button: it stays
 * shown. A text without changes is one fold.
 */
export function foldUnchanged(
  ops: DiffOp[],
  context = 3,
  keep: (op: DiffOp) => boolean = () => false,
): DiffChunk[] {
  const near = new Uint8Array(ops.length);
  ops.forEach((op, i) => {
    if (op.kind === 'same' && !keep(op)) return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++)
      near[j] = 1;
  });
  const chunks: DiffChunk[] = [];
  let run: DiffOp[] = [];
  let folding = false;
  const flush = () => {
    if (!run.length) return;
    if (folding && run.length >= 2) chunks.push({ kind: 'folded', id: chunks.length, ops: run });
    else {
      const last = chunks[chunks.length - 1];
      if (last?.kind === 'shown') last.ops.push(...run);
      else chunks.push({ kind: 'shown', ops: run });
    }
    run = [];
  };
  ops.forEach((op, i) => {
    const fold = op.kind === 'same' && !near[i];
    if (fold !== folding) {
      flush();
      folding = fold;
    }
    run.push(op);
  });
  flush();
  return chunks;
}

/** "1 line added, 2 removed." */
export function changeSummary({ added, removed }: { added: number; removed: number }): string {
  if (added + removed === 0) return 'No differences in the text.';
  return `${added} ${added === 1 ? 'line' : 'lines'} added, ${removed} removed.`;
}
