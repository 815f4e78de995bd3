import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * src/pages has no file circle (docs/architecture.md, "Inside pages"): every import counts,
 * `import type` and `export ... from` included, since a circle of types is as hard to read as
 * one of values. (That no arrow climbs back up from model/, rendering/ or store/ is kept by
 * `npm run lint`; test/lint/boundaries.spec.ts proves it.)
 */
const root = join(__dirname, '..', '..');
const PAGES = join(root, 'src', 'pages');

type Graph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Each file of `dir` with the files of `dir` it imports. */
function importGraph(dir: string): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(dir)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolve(file, imported.fileName))
      .filter((target): target is string => target !== null && target.startsWith(dir));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of `graph` (strongly connected groups of more than one file, or a self-import). */
function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.map((group) => group.map((file) => relative(root, file)));
}

describe('src/pages has no file circle', () => {
  const graph = importGraph(PAGES);

  it('reads the imports of every file, type-only ones included', () => {
    expect(graph.size).toBeGreaterThan(50);
    // page-state.ts imports the metadata's types: the arrow is in the graph.
    expect(graph.get(join(PAGES, 'model', 'page-state.ts'))).toContain(
      join(PAGES, 'model', 'page-metadata.ts'),
    );
  });

  it('finds none', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('would find a deliberate one (page-columns importing the metadata types again)', () => {
    const columns = join(PAGES, 'model', 'page-columns.ts');
    const withCircle: Graph = new Map(graph);
    withCircle.set(columns, [...graph.get(columns)!, join(PAGES, 'model', 'page-metadata.ts')]);
    expect(circles(withCircle)).toEqual([
      ['src/pages/model/page-columns.ts', 'src/pages/model/page-metadata.ts'],
    ]);
  });
});
