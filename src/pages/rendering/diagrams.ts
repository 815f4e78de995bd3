import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { startWorker } from '../../common/workers/worker-entry';
import type {
  DiagramKind,
  DiagramReply,
  DiagramRequest,
  DiagramWorkerData,
} from './diagram-worker';
import { sanitizeSvg } from './svg-sanitiser';

/**
 * ```` ```dot ```` (or ```` ```graphviz ````) and ```` ```mermaid ```` fences. Both lay out in a
 * worker thread of their own (diagram-worker.ts: Graphviz in WebAssembly, Mermaid with the
 * pure-JS beautiful-mermaid, docs/pages.md says why) that the renderer waits for
 * synchronously under a time cap and ends when a layout overruns it; the SVG is sanitised
 * (svg-sanitiser.ts) and put in a `<figure class="kb-diagram">`. Whatever is not drawn is
 * shown as source in a `<div class="kb-diagram-source">` with a note saying why, never as an
 * empty box.
 */

export const DIAGRAM_LIMITS = {
  /** Longest DOT source laid out. */
  maxSourceChars: 100_000,
  /** Most nodes a DOT source may declare (counted before layout). */
  maxNodes: 5_000,
  /** Most edges it may draw (`{a b} -> {c d}` is four; counted before layout). */
  maxEdges: 20_000,
  /** Longest a layout may take before its worker is ended. */
  timeoutMs: 4_000,
  /** Longest the diagrams of one render may take together. */
  renderBudgetMs: 10_000,
  /** Largest SVG kept (after sanitising): a page's HTML is stored with each version. */
  maxSvgChars: 1_000_000,
  /** Most diagrams drawn in one page (the others are shown as source). */
  maxPerPage: 20,
  /** Longest Mermaid source laid out. */
  maxMermaidSourceChars: 20_000,
  /** Most lines a Mermaid source may have (about one node or edge each; counted before layout). */
  maxMermaidLines: 1_000,
};

/** The slot of the worker's signal that says whether a kind's engine has loaded. */
const LOADED_SLOT: Record<DiagramKind, number> = { graphviz: 1, mermaid: 2 };

/** Heap of the diagram worker: a layout that would take more is ended like one that overruns. */
const WORKER_HEAP_MB = 256;

/** Longest the Graphviz worker may take to load its WebAssembly (once per worker). */
const LOAD_TIMEOUT_MS = 30_000;

const WORKER_ENTRY = `${__dirname}/diagram-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/** The Mermaid diagram kinds kb draws (by their first line), as the note names them. */
const MERMAID_KINDS =
  /^(?:(?:graph|flowchart)[ \t]+(?:TD|TB|LR|BT|RL)|sequenceDiagram|classDiagram|erDiagram|stateDiagram(?:-v2)?)[ \t]*;?$/i;
export const MERMAID_KINDS_NOTE =
  'kb draws flowcharts, sequence, class, state and entity-relationship diagrams';

type Layout = { svg: string } | { refused: string };

/**
 * The diagram worker, started on first use (or by `start`): a request is posted to it and
 * the caller waits on a shared counter for the answer, up to the cap; a worker that overruns
 * (or runs out of its heap) is ended and the next layout starts a new one.
 */
class DiagramEngine {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private signal: Int32Array | null = null;
  private nextId = 1;

  start(): void {
    if (this.worker) return;
    const signal = new Int32Array(new SharedArrayBuffer(12));
    const { port1, port2 } = new MessageChannel();
    const workerData: DiagramWorkerData = { signal, port: port2, loadedSlot: LOADED_SLOT };
    const worker = startWorker(WORKER_ENTRY, {
      workerData,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    port1.unref();
    const forget = () => {
      if (this.worker === worker) this.stop();
    };
    worker.on('error', forget);
    worker.on('exit', forget);
    this.worker = worker;
    this.port = port1;
    this.signal = signal;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = this.port = this.signal = null;
    if (worker) void worker.terminate();
  }

  layout(kind: DiagramKind, source: string, timeoutMs: number): Layout {
    this.start();
    const signal = this.signal!;
    const slot = LOADED_SLOT[kind];
    if (Atomics.load(signal, slot) === 0) Atomics.wait(signal, slot, 0, LOAD_TIMEOUT_MS);
    if (Atomics.load(signal, slot) !== 1) {
      this.stop();
      return { refused: `the ${ENGINE_NAMES[kind]} layout engine could not be loaded.` };
    }
    const id = this.nextId++;
    this.port!.postMessage({ id, kind, source } satisfies DiagramRequest);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answered = Atomics.load(signal, 0);
      if (answered === id) break;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.stop();
        const seconds = Math.round(timeoutMs / 100) / 10;
        return { refused: `its layout took longer than ${seconds} seconds (the limit).` };
      }
      Atomics.wait(signal, 0, answered, left);
    }
    for (;;) {
      const message = receiveMessageOnPort(this.port!);
      if (!message) return { refused: `the ${ENGINE_NAMES[kind]} layout engine did not answer.` };
      const reply = message.message as DiagramReply;
      if (reply.id !== id) continue;
      return 'svg' in reply ? { svg: reply.svg } : { refused: engineError(kind, reply.error) };
    }
  }
}

const ENGINE_NAMES: Record<DiagramKind, string> = { graphviz: 'Graphviz', mermaid: 'Mermaid' };

/** The engine's error, on one line and short (it can quote the whole source). */
function engineError(kind: DiagramKind, message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return `${ENGINE_NAMES[kind]} could not read it: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
}

const engine = new DiagramEngine();

/** Starts the diagram worker now (a render worker does, so the first diagram does not wait). */
export function startDiagramEngine(): void {
  engine.start();
}

/** Whether Markdown may hold a diagram fence (a render worker draws it). */
export function mayHoldDiagram(markdown: string): boolean {
  return /(?:```|~~~)[ \t]*(?:dot|graphviz|mermaid)\b/i.test(markdown);
}

const DOT_KEYWORDS = new Set(['graph', 'digraph', 'subgraph', 'node', 'edge', 'strict']);
const DOT_TOKEN =
  /\/\*[\s\S]*?\*\/|\/\/[^\n]*|^#[^\n]*|"(?:[^"\\]|\\[\s\S])*"|<(?:[^<>]|<[^<>]*>)*>|[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|-?(?:\.\d+|\d+(?:\.\d*)?)|->|--|[[\]=]|[^\s]/gm;

/** The DOT source's tokens, comments left out. */
function dotTokens(source: string): string[] {
  return (source.match(DOT_TOKEN) ?? []).filter((token) => !/^(?:\/\*|\/\/|#)/.test(token));
}

/** An ID (name, number, quoted or HTML string), not an operator or punctuation. */
function isDotId(token: string): boolean {
  return token !== '->' && token !== '--' && /^[\w"<.\u0080-\uffff-]/.test(token);
}

/**
 * How many distinct nodes a DOT source names, counting up to `limit + 1` (a tokeniser, not a
 * parser: the IDs outside attribute lists that are not keywords, attribute names or values,
 * or subgraph names). Cheap, so an oversized graph is refused before any layout.
 */
export function countDotNodes(source: string, limit: number): number {
  const nodes = new Set<string>();
  const tokens = (source.match(DOT_TOKEN) ?? []).filter((token) => !/^(?:\/\*|\/\/|#)/.test(token));
  let bracketDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '[') bracketDepth++;
    else if (token === ']') bracketDepth = Math.max(0, bracketDepth - 1);
    if (bracketDepth > 0 || token === '->' || token === '--') continue;
    if (!isDotId(token)) continue;
    if (DOT_KEYWORDS.has(token.toLowerCase())) {
      // A graph's or subgraph's name is not a node.
      const next = tokens[i + 1];
      if (next !== undefined && next !== '{' && !DOT_KEYWORDS.has(next.toLowerCase())) i++;
      continue;
    }
    if (tokens[i + 1] === '=') {
      // `rankdir=LR`: an attribute of the graph, and its value.
      i += 2;
      continue;
    }
    nodes.add(token.startsWith('"') ? token.slice(1, -1) : token);
    if (nodes.size > limit) break;
  }
  return nodes.size;
}

/**
 * How many edges a DOT source draws, estimated like the nodes: each `->` or `--` joins its
 * left and right operands, a `{…}` (or `subgraph {…}`) operand counting as every ID it holds,
 * so `{a b c} -> {d e}` is six. A few hundred bytes of such products would make a million
 * edges, and Graphviz's memory grows with them faster than the time cap stops it.
 */
export function countDotEdges(source: string): number {
  const tokens = dotTokens(source);
  // The IDs each brace group holds, by the index of its `{` and of its `}`.
  const sizes = new Map<number, number>();
  const open: { at: number; ids: number }[] = [];
  let bracketDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '[') bracketDepth++;
    else if (token === ']') bracketDepth = Math.max(0, bracketDepth - 1);
    else if (token === '{') open.push({ at: i, ids: 0 });
    else if (token === '}') {
      const group = open.pop();
      if (!group) continue;
      sizes.set(group.at, group.ids).set(i, group.ids);
      if (open.length > 0) open[open.length - 1].ids += group.ids;
    } else if (
      bracketDepth === 0 &&
      open.length > 0 &&
      isDotId(token) &&
      !DOT_KEYWORDS.has(token.toLowerCase()) &&
      tokens[i + 1] !== '=' &&
      tokens[i - 1] !== '='
    )
      open[open.length - 1].ids++;
  }
  let edges = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== '->' && tokens[i] !== '--') continue;
    const left = sizes.get(i - 1) ?? 1;
    let j = i + 1;
    if (tokens[j]?.toLowerCase() === 'subgraph') j += tokens[j + 1] === '{' ? 1 : 2;
    const right = sizes.get(j) ?? 1;
    edges += Math.max(1, left) * Math.max(1, right);
  }
  return edges;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A diagram shown as source, with the note saying why it is not drawn. */
export function diagramSource(language: string, source: string, note: string): string {
  return (
    `<div class="kb-diagram-source"><p class="kb-diagram-note">${escapeHtml(note)}</p>` +
    `<pre><code class="language-${escapeHtml(language)}">${escapeHtml(source)}</code></pre></div>\n`
  );
}

/** What one render's diagrams have used of their limits. */
export interface DiagramBudget {
  drawn: number;
  spentMs: number;
}

/**
 * A Graphviz fence as HTML: the sanitised SVG in a `<figure class="kb-diagram">`, or its
 * source with the reason it is not drawn. `index` makes the SVG's ids unique in the page.
 */
export function renderGraphviz(
  language: string,
  source: string,
  budget: DiagramBudget,
  index: number,
): string {
  const why = (reason: string) =>
    diagramSource(language, source, `Graphviz diagram not drawn: ${reason}`);
  const left = budgetLeft(budget);
  if (typeof left === 'string') return why(left);
  if (countDotNodes(source, DIAGRAM_LIMITS.maxNodes) > DIAGRAM_LIMITS.maxNodes)
    return why(
      `it has more than ${DIAGRAM_LIMITS.maxNodes.toLocaleString('en')} nodes (the limit).`,
    );
  if (countDotEdges(source) > DIAGRAM_LIMITS.maxEdges)
    return why(
      `it has more than ${DIAGRAM_LIMITS.maxEdges.toLocaleString('en')} edges (the limit).`,
    );
  if (source.length > DIAGRAM_LIMITS.maxSourceChars)
    return why(
      `its source is longer than ${DIAGRAM_LIMITS.maxSourceChars.toLocaleString('en')} characters (the limit).`,
    );
  budget.drawn++;
  const started = Date.now();
  const layout = engine.layout('graphviz', source, Math.min(DIAGRAM_LIMITS.timeoutMs, left));
  budget.spentMs += Date.now() - started;
  if ('refused' in layout) return why(layout.refused);
  // Far too large even before sanitising (which drops about a third): not worth sanitising.
  if (layout.svg.length > DIAGRAM_LIMITS.maxSvgChars * 4)
    return why(
      `its drawing is larger than ${DIAGRAM_LIMITS.maxSvgChars / 1_000_000} MB (the limit).`,
    );
  const svg = sanitizeSvg(layout.svg, `kb-diagram-${index}-`, 'Graphviz diagram');
  if (svg === '') return why('Graphviz drew nothing.');
  if (svg.length > DIAGRAM_LIMITS.maxSvgChars)
    return why(
      `its drawing is larger than ${DIAGRAM_LIMITS.maxSvgChars / 1_000_000} MB (the limit).`,
    );
  return `<figure class="kb-diagram kb-diagram-graphviz">${svg}</figure>\n`;
}

/** What a page's diagrams may still use, or why the next one is not drawn. */
function budgetLeft(budget: DiagramBudget): number | string {
  if (budget.drawn >= DIAGRAM_LIMITS.maxPerPage)
    return `a page draws at most ${DIAGRAM_LIMITS.maxPerPage} diagrams.`;
  const left = DIAGRAM_LIMITS.renderBudgetMs - budget.spentMs;
  if (left <= 0)
    return `the page's diagrams took longer than ${DIAGRAM_LIMITS.renderBudgetMs / 1000} seconds together (the limit).`;
  return left;
}

/** The Mermaid source without a leading front matter block and `%%` comment lines. */
function mermaidBody(source: string): string {
  return source
    .replace(/^\s*---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '')
    .replace(/^(?:[ \t]*(?:%%[^\n]*)?\r?\n)+/, '')
    .trim();
}

/** `color-mix(in srgb, fg p%, bg)` of two `#rrggbb` colours. */
function mix(fg: string, bg: string, percent: number): string {
  const channel = (hex: string, at: number) => parseInt(hex.slice(at, at + 2), 16);
  let out = '#';
  for (const at of [1, 3, 5]) {
    const value = Math.round((channel(fg, at) * percent + channel(bg, at) * (100 - percent)) / 100);
    out += value.toString(16).padStart(2, '0');
  }
  return out.toUpperCase();
}

const MERMAID_BG = '#FFFFFF';
const MERMAID_FG = '#27272A';

/**
 * The colours beautiful-mermaid leaves to CSS custom properties (set in a `<style>` the
 * sanitiser drops), worked out as that stylesheet would, so the SVG carries plain colours.
 */
const MERMAID_COLOURS: Record<string, string> = {
  bg: MERMAID_BG,
  fg: MERMAID_FG,
  _text: MERMAID_FG,
  '_text-sec': mix(MERMAID_FG, MERMAID_BG, 60),
  '_text-muted': mix(MERMAID_FG, MERMAID_BG, 40),
  '_text-faint': mix(MERMAID_FG, MERMAID_BG, 25),
  _line: mix(MERMAID_FG, MERMAID_BG, 50),
  _arrow: mix(MERMAID_FG, MERMAID_BG, 85),
  '_node-fill': mix(MERMAID_FG, MERMAID_BG, 3),
  '_node-stroke': mix(MERMAID_FG, MERMAID_BG, 20),
  '_group-fill': MERMAID_BG,
  '_group-hdr': mix(MERMAID_FG, MERMAID_BG, 5),
  '_inner-stroke': mix(MERMAID_FG, MERMAID_BG, 12),
  '_key-badge': mix(MERMAID_FG, MERMAID_BG, 10),
};

/** beautiful-mermaid's SVG with each `var(--name)` replaced by its colour. */
export function resolveMermaidColours(svg: string): string {
  return svg.replace(
    /var\(\s*--([\w-]+)\s*(?:,[^()]*)?\)/g,
    (_, name: string) => MERMAID_COLOURS[name] ?? MERMAID_FG,
  );
}

/**
 * A Mermaid fence as HTML: the sanitised SVG in a `<figure class="kb-diagram
 * kb-diagram-mermaid">`, or its source with the reason it is not drawn.
 */
export function renderMermaid(source: string, budget: DiagramBudget, index: number): string {
  const why = (reason: string) =>
    diagramSource('mermaid', source, `Mermaid diagram not drawn: ${reason}`);
  const left = budgetLeft(budget);
  if (typeof left === 'string') return why(left);
  if (source.length > DIAGRAM_LIMITS.maxMermaidSourceChars)
    return why(
      `its source is longer than ${DIAGRAM_LIMITS.maxMermaidSourceChars.toLocaleString('en')} characters (the limit).`,
    );
  const body = mermaidBody(source);
  if (body.split('\n').length > DIAGRAM_LIMITS.maxMermaidLines)
    return why(
      `it has more than ${DIAGRAM_LIMITS.maxMermaidLines.toLocaleString('en')} lines (the limit).`,
    );
  const header = body.split('\n', 1)[0].trim();
  if (!MERMAID_KINDS.test(header))
    return why(`${MERMAID_KINDS_NOTE}, and this one starts "${header.slice(0, 60)}".`);
  budget.drawn++;
  const started = Date.now();
  const layout = engine.layout('mermaid', body, Math.min(DIAGRAM_LIMITS.timeoutMs, left));
  budget.spentMs += Date.now() - started;
  if ('refused' in layout) return why(layout.refused);
  if (layout.svg.length > DIAGRAM_LIMITS.maxSvgChars * 4)
    return why(
      `its drawing is larger than ${DIAGRAM_LIMITS.maxSvgChars / 1_000_000} MB (the limit).`,
    );
  const svg = sanitizeSvg(
    resolveMermaidColours(layout.svg),
    `kb-diagram-${index}-`,
    'Mermaid diagram',
  );
  if (svg === '') return why('Mermaid drew nothing.');
  if (svg.length > DIAGRAM_LIMITS.maxSvgChars)
    return why(
      `its drawing is larger than ${DIAGRAM_LIMITS.maxSvgChars / 1_000_000} MB (the limit).`,
    );
  return `<figure class="kb-diagram kb-diagram-mermaid">${svg}</figure>\n`;
}
