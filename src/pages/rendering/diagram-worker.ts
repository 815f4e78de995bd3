import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessagePort, workerData } from 'node:worker_threads';

/**
 * The diagram worker: lays out DOT with Graphviz compiled to WebAssembly
 * (@hpcc-js/wasm-graphviz) and Mermaid with beautiful-mermaid (pure JavaScript, ELK layout,
 * no DOM), neither with any process, file or network access, for the engine in diagrams.ts
 * that started it. The engine waits on `signal` (SharedArrayBuffer) with a time cap and ends
 * this thread when a layout overruns it; replies go through `port`, which it reads
 * synchronously. signal[0]: the id of the last request answered; signal[loadedSlot[kind]]: 1
 * once that kind's engine has loaded (2 if it failed to load).
 */
export interface DiagramWorkerData {
  signal: Int32Array;
  port: MessagePort;
  loadedSlot: Record<DiagramKind, number>;
}

/** What lays a diagram out. */
export type DiagramKind = 'graphviz' | 'mermaid';

/** A layout request and its answer: SVG text, or the error the engine reported. */
export interface DiagramRequest {
  id: number;
  kind: DiagramKind;
  source: string;
}
export type DiagramReply = { id: number; svg: string } | { id: number; error: string };

interface Graphviz {
  dot(source: string, format?: string): string;
}
interface BeautifulMermaid {
  renderMermaidSVG(source: string, options?: Record<string, unknown>): string;
}

const { signal, port, loadedSlot } = workerData as DiagramWorkerData;

// ES modules: imported by their file URL (this file is compiled to CommonJS, whose require
// cannot load them on Node 20; `new Function` keeps the compiler from turning import() into one).
const importModule = new Function('url', 'return import(url)') as <T>(url: string) => Promise<T>;

function load<T>(kind: DiagramKind, loading: Promise<T>): Promise<T> {
  const slot = loadedSlot[kind];
  const loaded = loading.then(
    (engine) => {
      Atomics.store(signal, slot, 1);
      Atomics.notify(signal, slot);
      return engine;
    },
    (error: unknown) => {
      Atomics.store(signal, slot, 2);
      Atomics.notify(signal, slot);
      throw error;
    },
  );
  // A failed load is answered to each request (below), not thrown at the thread.
  loaded.catch(() => undefined);
  return loaded;
}

const graphviz = load(
  'graphviz',
  importModule<{ Graphviz: { load(): Promise<Graphviz> } }>(
    pathToFileURL(require.resolve('@hpcc-js/wasm-graphviz')).href,
  ).then(({ Graphviz }) => Graphviz.load()),
);

/** beautiful-mermaid's entry (its package exports only `import`, which require cannot resolve). */
function mermaidEntry(): string {
  const dir = (require.resolve.paths('beautiful-mermaid') ?? [])
    .map((modules) => join(modules, 'beautiful-mermaid'))
    .find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!dir) throw new Error('beautiful-mermaid is not installed');
  return pathToFileURL(join(dir, 'dist', 'index.js')).href;
}

const mermaid = load(
  'mermaid',
  Promise.resolve().then(() => importModule<BeautifulMermaid>(mermaidEntry())),
);

/** The SVG of one diagram (synchronous work: the engine ends this thread if it overruns). */
async function draw(kind: DiagramKind, source: string): Promise<string> {
  if (kind === 'graphviz') return (await graphviz).dot(source, 'svg');
  // Light colours on a white card, the same in the page, the print document and the PDF.
  return (await mermaid).renderMermaidSVG(source, { bg: '#FFFFFF', fg: '#27272A' });
}

port.on('message', ({ id, kind, source }: DiagramRequest) => {
  void draw(kind, source)
    .then((svg) => ({ id, svg }))
    .catch((error: unknown) => ({
      id,
      error: error instanceof Error ? error.message : String(error),
    }))
    .then((reply: DiagramReply) => {
      port.postMessage(reply);
      Atomics.store(signal, 0, id);
      Atomics.notify(signal, 0);
    });
});
