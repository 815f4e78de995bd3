import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from 'cytoscape';
import { useEffect, useRef } from 'react';
import type { Graph } from '../api/admin';
import { sectionLayout } from '../model/graph-layout';

/** Colours from the console's palette (cytoscape draws on a canvas, so no CSS variables). */
const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': '#2f5bea',
      label: 'data(label)',
      color: '#1f2328',
      'font-size': 11,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'min-zoomed-font-size': 8,
      'text-max-width': '120px',
      'text-wrap': 'ellipsis',
      width: 'mapData(degree, 0, 20, 8, 28)',
      height: 'mapData(degree, 0, 20, 8, 28)',
    },
  },
  {
    selector: 'edge',
    style: {
      width: 1,
      'line-color': '#c9ccd1',
      'target-arrow-color': '#c9ccd1',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.6,
      'curve-style': 'haystack',
    },
  },
  { selector: 'node:selected', style: { 'background-color': '#c5221f' } },
];

function elementsOf(graph: Graph): ElementDefinition[] {
  const present = new Set(graph.nodes.map((n) => n.slug));
  const edges = graph.edges.filter((e) => present.has(e.from) && present.has(e.to));
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.from, (degree.get(e.from) ?? 0) + 1);
    degree.set(e.to, (degree.get(e.to) ?? 0) + 1);
  }
  return [
    ...graph.nodes.map((n) => ({
      data: { id: n.slug, label: n.title, degree: degree.get(n.slug) ?? 0 },
    })),
    ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.from, target: e.to } })),
  ];
}

/**
 * The picture: cytoscape.js on a canvas, pan and zoom with mouse, wheel or touch; a click (or
 * tap) on a node opens its page. The layout is sectionLayout's (linear time), so 1,000 nodes
 * appear at once.
 */
export function GraphView({ graph, onOpen }: { graph: Graph; onOpen: (slug: string) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    if (!container.current) return;
    const at = sectionLayout(graph.nodes.map((n) => n.slug));
    const cy: Core = cytoscape({
      container: container.current,
      elements: elementsOf(graph),
      style: STYLE,
      layout: {
        name: 'preset',
        positions: (node: unknown) => at.get((node as NodeSingular).id()) ?? { x: 0, y: 0 },
        fit: true,
        padding: 24,
      },
      minZoom: 0.05,
      maxZoom: 4,
    });
    cy.on('tap', 'node', (event) => open.current(String(event.target.id())));
    (window as unknown as { __kbGraph?: Core }).__kbGraph = cy;
    return () => cy.destroy();
  }, [graph]);

  return <div ref={container} className="graph__canvas" role="img" aria-label="Knowledge graph" />;
}
