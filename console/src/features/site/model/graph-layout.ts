export interface Point {
  x: number;
  y: number;
}

/** A cell of the picture: a node above its label, room for a label `LABEL_WIDTH` wide. */
export const CELL = { width: 140, height: 56 };
/** The widest a label is drawn (graph-view.tsx, `text-max-width`): it fits its cell. */
export const LABEL_WIDTH = 120;

/** The section a page belongs to in the picture: its first slug segment. */
export function sectionOf(slug: string): string {
  const slash = slug.indexOf('/');
  return slash === -1 ? slug : slug.slice(0, slash);
}

/** Blocks are shaped like the picture (about 16:9), so a fitted section fills it. */
const ASPECT = 1.7;

/** A block of `count` cells shaped like the picture; answers each cell's centre and the size. */
function block(count: number): { points: Point[]; width: number; height: number } {
  const columns = Math.max(1, Math.ceil(Math.sqrt((count * ASPECT * CELL.height) / CELL.width)));
  const rows = Math.ceil(count / columns);
  const points: Point[] = [];
  for (let i = 0; i < count; i++) {
    points.push({
      x: (i % columns) * CELL.width + CELL.width / 2,
      y: Math.floor(i / columns) * CELL.height + CELL.height / 2,
    });
  }
  return { points, width: columns * CELL.width, height: rows * CELL.height };
}

/**
 * Positions for every slug in linear time (force layouts take tens of seconds at 1,000 nodes in
 * a browser): the pages of one section (`handbook/…`) fill a block of cells, in slug order so
 * neighbours in the tree sit together, and the blocks are packed in rows, the largest first,
 * a gap of half a cell between them. Every node has a cell of its own, as wide as the widest
 * label, so no two labels overlap.
 */
export function sectionLayout(slugs: string[]): Map<string, Point> {
  const sections = new Map<string, string[]>();
  for (const slug of [...slugs].sort()) {
    const key = sectionOf(slug);
    const members = sections.get(key);
    if (members) members.push(slug);
    else sections.set(key, [slug]);
  }
  const gap = CELL.width / 2;
  const blocks = [...sections.values()]
    .map((members) => ({ members, ...block(members.length) }))
    .sort((a, b) => b.members.length - a.members.length);
  const area = blocks.reduce((sum, b) => sum + (b.width + gap) * (b.height + gap), 0);
  const rowWidth = Math.max(Math.sqrt(area) * 1.6, blocks[0] ? blocks[0].width : 0);

  const positions = new Map<string, Point>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const b of blocks) {
    if (x > 0 && x + b.width > rowWidth) {
      x = 0;
      y += rowHeight + gap;
      rowHeight = 0;
    }
    b.members.forEach((slug, i) => {
      const p = b.points[i];
      positions.set(slug, { x: x + p.x, y: y + p.y });
    });
    x += b.width + gap;
    rowHeight = Math.max(rowHeight, b.height);
  }
  return positions;
}
