import { CELL, LABEL_WIDTH, sectionLayout, sectionOf } from './graph-layout';

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

describe('the graph layout', () => {
  it('groups pages by their first slug segment', () => {
    expect(sectionOf('handbook/tools/git')).toBe('handbook');
    expect(sectionOf('home')).toBe('home');
  });

  it('places every page, no two on the same spot, a section closer together than to others', () => {
    const slugs = [
      ...Array.from({ length: 1000 }, (_, i) => `bulk/p${i}`),
      'handbook',
      'handbook/tools',
      'handbook/onboarding',
      'runbooks/deploy',
    ];
    const at = sectionLayout(slugs);
    expect(at.size).toBe(slugs.length);
    const points = [...at.values()];
    const spots = new Set(points.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
    expect(spots.size).toBe(points.length);
    for (const p of points) expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
    const within = distance(at.get('handbook')!, at.get('handbook/tools')!);
    expect(within).toBeLessThan(distance(at.get('handbook')!, at.get('runbooks/deploy')!));
  });

  it('gives every node a cell of its own, wider than a label, so labels never overlap', () => {
    const slugs = Array.from({ length: 50 }, (_, i) => `s${i % 7}/page-${i}`);
    const points = [...sectionLayout(slugs).values()];
    expect(LABEL_WIDTH).toBeLessThan(CELL.width);
    for (let i = 0; i < points.length; i++)
      for (let j = i + 1; j < points.length; j++) {
        const apart =
          Math.abs(points[i].x - points[j].x) >= CELL.width ||
          Math.abs(points[i].y - points[j].y) >= CELL.height;
        expect(apart).toBe(true);
      }
  });

  it('answers nothing for no pages', () => {
    expect(sectionLayout([]).size).toBe(0);
  });
});
