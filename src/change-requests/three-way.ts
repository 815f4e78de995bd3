import { diff3Merge } from 'node-diff3';

/** An overlapping edit: the base's lines and what each side made of them. */
export interface ConflictHunk {
  /** 1-based line in the base where the hunk starts. */
  line: number;
  base: string;
  proposed: string;
  current: string;
}

export type MergeOutcome = { merged: string } | { conflicts: ConflictHunk[] };

/**
 * A three-way merge by lines (node-diff3): what the request proposes and what the page became
 * since the request's base, both measured from the base. Edits that do not overlap are both
 * applied; overlapping ones (both sides changed the same lines differently) are answered as
 * conflicts, never resolved by picking a side.
 */
export function mergeThreeWay(base: string, proposed: string, current: string): MergeOutcome {
  if (proposed === base || proposed === current) return { merged: current };
  if (current === base) return { merged: proposed };
  const split = (text: string) => text.split('\n');
  const regions = diff3Merge(split(proposed), split(base), split(current), {
    excludeFalseConflicts: true,
  });
  const lines: string[] = [];
  const conflicts: ConflictHunk[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict)
      conflicts.push({
        line: region.conflict.oIndex + 1,
        base: region.conflict.o.join('\n'),
        proposed: region.conflict.a.join('\n'),
        current: region.conflict.b.join('\n'),
      });
  }
  return conflicts.length > 0 ? { conflicts } : { merged: lines.join('\n') };
}
