export interface Point {
  x: number;
  y: number;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** The section a page belongs to in the picture: its first slug segment. */
export function sectionOf(slug: string): string {
  const slash = slug.indexOf('/');
  return slash === -1 ? slug : slug.slice(0, slash);
}

/** A sunflower of `count` points around (0, 0), `spacing` apart; answers the points and radius. */
function sunflower(count: number, spacing: number): { points: Point[]; radius: number } {
  const points: Point[] = [];
  for (let i = 0; i < count; i++) {
    const r = spacing * Math.sqrt(i + 0.5);
    points.push({ x: r * Math.cos(i * GOLDEN_ANGLE), y: r * Math.sin(i * GOLDEN_ANGLE) });
  }
  return { points, radius: spacing * Math.sqrt(count + 0.5) + spacing };
}

/**
 * Positions for every slug in linear time (force layouts take tens of seconds at 1,000 nodes in
 * a browser): pages of one section (`handbook/…`) form a disc, ordered by slug so neighbours in
 * the tree sit together; the discs are packed in rows, the largest first.
 */
export function sectionLayout(slugs: string[], spacing = 36): Map<string, Point> {
  const sections = new Map<string, string[]>();
  for (const slug of [...slugs].sort()) {
    const key = sectionOf(slug);
    const members = sections.get(key);
    if (members) members.push(slug);
    else sections.set(key, [slug]);
  }
  const discs = [...sections.values()]
    .map((members) => ({ members, ...sunflower(members.length, spacing) }))
    .sort((a, b) => b.members.length - a.members.length);
  const area = discs.reduce((sum, d) => sum + (2 * d.radius) ** 2, 0);
  const rowWidth = Math.max(Math.sqrt(area) * 1.3, discs[0] ? 2 * discs[0].radius : 0);

  const positions = new Map<string, Point>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const disc of discs) {
    const size = 2 * disc.radius;
    if (x > 0 && x + size > rowWidth) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    disc.members.forEach((slug, i) => {
      const p = disc.points[i];
      positions.set(slug, { x: x + disc.radius + p.x, y: y + disc.radius + p.y });
    });
    x += size;
    rowHeight = Math.max(rowHeight, size);
  }
  return positions;
}
