import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { startWorker } from '../../common/workers/worker-entry';
import type { DiagramReply, DiagramRequest, DiagramWorkerData } from './diagram-worker';
import { sanitizeSvg } from './svg-sanitiser';

/**
 * ```` ```dot ```` (or ```` ```graphviz ````) and ```` ```mermaid ```` fences. Graphviz lays
 * out in a worker thread of its own (diagram-worker.ts) that the renderer waits for
 * synchronously under a time cap and ends when a layout overruns it; its SVG is sanitised
 * (svg-sanitiser.ts) and put in a `<figure class="kb-diagram">`. Mermaid needs a browser to
 * lay out (docs/pages.md says why kb does not run one here): it is shown as source. Whatever
 * is not drawn is shown as source in a `<div class="kb-diagram-source">` with a note saying
 * why, never as an empty box.
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
};

/** Longest the Graphviz worker may take to load its WebAssembly (once per worker). */
const LOAD_TIMEOUT_MS = 30_000;

const WORKER_ENTRY = `${__dirname}/diagram-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

export const MERMAID_NOTE =
  'Mermaid diagrams are shown as source: kb draws diagrams without a browser, and Mermaid ' +
  'needs one to lay out its text.';

type Layout = { svg: string } | { refused: string };

/**
 * The Graphviz worker, started on first use (or by `start`): a request is posted to it and
 * the caller waits on a shared counter for the answer, up to the cap; a worker that overruns
 * is ended and the next layout starts a new one.
 */
class GraphvizEngine {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private signal: Int32Array | null = null;
  private nextId = 1;

  start(): void {
    if (this.worker) return;
    const signal = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    const workerData: DiagramWorkerData = { signal, port: port2 };
    const worker = startWorker(WORKER_ENTRY, { workerData, transferList: [port2] });
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

  layout(source: string, timeoutMs: number): Layout {
    this.start();
    const signal = this.signal!;
    if (Atomics.load(signal, 1) === 0) Atomics.wait(signal, 1, 0, LOAD_TIMEOUT_MS);
    if (Atomics.load(signal, 1) !== 1) {
      this.stop();
      return { refused: 'the Graphviz layout engine could not be loaded.' };
    }
    const id = this.nextId++;
    this.port!.postMessage({ id, source } satisfies DiagramRequest);
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
      if (!message) return { refused: 'the Graphviz layout engine did not answer.' };
      const reply = message.message as DiagramReply;
      if (reply.id !== id) continue;
      return 'svg' in reply ? { svg: reply.svg } : { refused: graphvizError(reply.error) };
    }
  }
}

/** Graphviz's error, on one line and short (it can quote the whole source). */
function graphvizError(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return `Graphviz could not read it: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
}

const graphviz = new GraphvizEngine();

/** Starts the Graphviz worker now (a render worker does, so the first diagram does not wait). */
export function startDiagramEngine(): void {
  graphviz.start();
}

/** Whether Markdown may hold a Graphviz fence (a render worker draws it). */
export function mayHoldGraphviz(markdown: string): boolean {
  return /(?:```|~~~)[ \t]*(?:dot|graphviz)\b/i.test(markdown);
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
  if (budget.drawn >= DIAGRAM_LIMITS.maxPerPage)
    return why(`a page draws at most ${DIAGRAM_LIMITS.maxPerPage} diagrams.`);
  const left = DIAGRAM_LIMITS.renderBudgetMs - budget.spentMs;
  if (left <= 0)
    return why(
      `the page's diagrams took longer than ${DIAGRAM_LIMITS.renderBudgetMs / 1000} seconds together (the limit).`,
    );
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
  const layout = graphviz.layout(source, Math.min(DIAGRAM_LIMITS.timeoutMs, left));
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
