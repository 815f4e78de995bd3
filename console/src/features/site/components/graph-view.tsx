import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from 'cytoscape';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { isDark, subscribeTheme } from '../../../lib/theme';
import type { Graph } from '../../../api/types';
import { LABEL_WIDTH, sectionLayout } from '../model/graph-layout';

/**
 * The style in the console's colours, read from its CSS variables (cytoscape draws on a canvas),
 * so the picture follows the light or dark theme.
 */
function styleOf(): cytoscape.StylesheetJson {
  const css = getComputedStyle(document.documentElement);
  const color = (name: string) => css.getPropertyValue(name).trim();
  return [
    {
      selector: 'node',
      style: {
        'background-color': color('--accent'),
        label: 'data(label)',
        color: color('--text'),
        'font-size': 11,
        'text-valign': 'bottom',
        'text-margin-y': 3,
        'min-zoomed-font-size': 8,
        'text-max-width': `${LABEL_WIDTH}px`,
        'text-wrap': 'ellipsis',
        width: 'mapData(degree, 0, 20, 8, 28)',
        height: 'mapData(degree, 0, 20, 8, 28)',
      },
    },
    {
      selector: 'edge',
      style: {
        width: 1,
        'line-color': color('--line-strong'),
        'target-arrow-color': color('--line-strong'),
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.6,
        'curve-style': 'haystack',
      },
    },
    { selector: 'node:selected', style: { 'background-color': color('--danger') } },
  ];
}

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
 * The picture: cytoscape.js on a canvas, pan and zoom with mouse, wheel or touch, or with the
 * Zoom in / Zoom out / Fit buttons; a click (or tap) on a node opens its page. The layout is
 * sectionLayout's (linear time), so 1,000 nodes appear at once.
 */
export function GraphView({ graph, onOpen }: { graph: Graph; onOpen: (slug: string) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const view = useRef<Core | null>(null);
  const open = useRef(onOpen);
  open.current = onOpen;
  const dark = useSyncExternalStore(subscribeTheme, isDark);

  useEffect(() => {
    if (!container.current) return;
    const at = sectionLayout(graph.nodes.map((n) => n.slug));
    const cy: Core = cytoscape({
      container: container.current,
      elements: elementsOf(graph),
      style: styleOf(),
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
    view.current = cy;
    return () => {
      view.current = null;
      cy.destroy();
    };
  }, [graph, dark]);

  const zoomBy = (factor: number) => {
    const cy = view.current;
    if (!cy) return;
    cy.zoom({
      level: cy.zoom() * factor,
      renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 },
    });
  };
  return (
    <div className="graph__view">
      <div className="graph__zoom" role="group" aria-label="Zoom">
        <button type="button" className="button button--small" onClick={() => zoomBy(1.4)}>
          Zoom in
        </button>
        <button type="button" className="button button--small" onClick={() => zoomBy(1 / 1.4)}>
          Zoom out
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => view.current?.fit(undefined, 24)}
        >
          Fit
        </button>
      </div>
      <div ref={container} className="graph__canvas" role="img" aria-label="Knowledge graph" />
    </div>
  );
}
