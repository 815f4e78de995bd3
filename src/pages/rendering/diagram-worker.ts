import { pathToFileURL } from 'node:url';
import { MessagePort, workerData } from 'node:worker_threads';

/**
 * The Graphviz worker: lays out DOT with Graphviz compiled to WebAssembly
 * (@hpcc-js/wasm-graphviz, no process, no file or network access) for the DiagramEngine that
 * started it. The engine waits on `signal` (SharedArrayBuffer) with a time cap and ends this
 * thread when a layout overruns it; replies go through `port`, which it reads synchronously.
 * signal[0]: the id of the last request answered; signal[1]: 1 once Graphviz has loaded
 * (2 if it failed to load).
 */
export interface DiagramWorkerData {
  signal: Int32Array;
  port: MessagePort;
}

/** A layout request and its answer: SVG text, or the error Graphviz reported. */
export interface DiagramRequest {
  id: number;
  source: string;
}
export type DiagramReply = { id: number; svg: string } | { id: number; error: string };

interface Graphviz {
  dot(source: string, format?: string): string;
}

const { signal, port } = workerData as DiagramWorkerData;

// An ES module: imported by its file URL (this file is compiled to CommonJS, whose require
// cannot load it on Node 20; `new Function` keeps the compiler from turning import() into one).
const importModule = new Function('url', 'return import(url)') as (
  url: string,
) => Promise<{ Graphviz: { load(): Promise<Graphviz> } }>;

const loading = importModule(pathToFileURL(require.resolve('@hpcc-js/wasm-graphviz')).href)
  .then(({ Graphviz }) => Graphviz.load())
  .then(
    (graphviz) => {
      Atomics.store(signal, 1, 1);
      Atomics.notify(signal, 1);
      return graphviz;
    },
    (error: unknown) => {
      Atomics.store(signal, 1, 2);
      Atomics.notify(signal, 1);
      throw error;
    },
  );

// A failed load is answered to each request (below), not thrown at the thread.
loading.catch(() => undefined);

port.on('message', ({ id, source }: DiagramRequest) => {
  void loading
    .then((graphviz) => ({ id, svg: graphviz.dot(source, 'svg') }))
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
