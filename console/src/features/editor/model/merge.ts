import { diffLines, splitLines } from '../../../lib/diff';

export const MARKERS = { mine: '<<<<<<< mine', split: '=======', theirs: '>>>>>>> theirs' };

interface Hunk {
  /** Base lines [start, end) this side replaced. */
  start: number;
  end: number;
  lines: string[];
}

/** The changes one side made to the base, as replaced base ranges. */
function hunksOf(base: string[], side: string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  let baseIndex = 0;
  for (const op of diffLines(base, side)) {
    if (op.kind === 'same') {
      if (current) hunks.push(current);
      current = null;
      baseIndex = op.a;
      continue;
    }
    current ??= { start: baseIndex, end: baseIndex, lines: [] };
    if (op.kind === 'del') {
      current.end = op.a;
      baseIndex = op.a;
    } else current.lines.push(op.text);
  }
  if (current) hunks.push(current);
  return hunks;
}

export interface MergeResult {
  text: string;
  conflicts: number;
}

/**
 * A three-way line merge of two edits of the same base: changes made on one side only are
 * taken as they are; where both sides changed the same lines differently, both versions stay
 * between conflict markers for the person to resolve by hand.
 */
export function mergeThreeWay(baseText: string, mineText: string, theirsText: string): MergeResult {
  const base = splitLines(baseText);
  const mine = hunksOf(base, splitLines(mineText));
  const theirs = hunksOf(base, splitLines(theirsText));
  const out: string[] = [];
  let conflicts = 0;
  let position = 0;
  let i = 0;
  let j = 0;
  while (i < mine.length || j < theirs.length) {
    // The next group: the earliest hunk, then every hunk of either side whose base range
    // overlaps or touches the group's (touching changes conflict, as in diff3 and git).
    const seedMine = j >= theirs.length || (i < mine.length && mine[i].start <= theirs[j].start);
    const seed = seedMine ? mine[i++] : theirs[j++];
    const mineGroup: Hunk[] = seedMine ? [seed] : [];
    const theirsGroup: Hunk[] = seedMine ? [] : [seed];
    const start = seed.start;
    let end = seed.end;
    for (let grew = true; grew;) {
      grew = false;
      if (i < mine.length && mine[i].start <= end) {
        end = Math.max(end, mine[i].end);
        mineGroup.push(mine[i++]);
        grew = true;
      }
      if (j < theirs.length && theirs[j].start <= end) {
        end = Math.max(end, theirs[j].end);
        theirsGroup.push(theirs[j++]);
        grew = true;
      }
    }
    out.push(...base.slice(position, start));
    const side = (group: Hunk[]) => {
      const lines: string[] = [];
      let at = start;
      for (const h of group) {
        lines.push(...base.slice(at, h.start), ...h.lines);
        at = h.end;
      }
      return [...lines, ...base.slice(at, end)];
    };
    const mineLines = side(mineGroup);
    const theirsLines = side(theirsGroup);
    if (!theirsGroup.length) out.push(...mineLines);
    else if (!mineGroup.length) out.push(...theirsLines);
    else if (mineLines.join('\n') === theirsLines.join('\n')) out.push(...mineLines);
    else {
      conflicts++;
      out.push(MARKERS.mine, ...mineLines, MARKERS.split, ...theirsLines, MARKERS.theirs);
    }
    position = end;
  }
  out.push(...base.slice(position));
  return { text: out.join('\n'), conflicts };
}

export function hasConflictMarkers(text: string): boolean {
  const lines = splitLines(text);
  return lines.includes(MARKERS.mine) || lines.includes(MARKERS.theirs);
}
