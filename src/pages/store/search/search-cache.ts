/** Answers kept per connection: a few hundred popular queries cover most of a wiki's searches. */
const DEFAULT_CAPACITY = 500;

/**
 * Search answers of one search generation (`Sql.searchGeneration()` on a read-pool connection),
 * least recently used dropped first. Every commit that changes what a search can answer (a
 * page, its groups, a group's name, the index) starts a new generation and empties the cache,
 * so an answer is never older than the data it was read from; other commits (sessions, tokens,
 * rate counters, jobs) leave it alone. Under a page-write-heavy load the cache simply stops
 * helping. Keys include everything else the answer depends on: the words, the viewer's role
 * and groups (visibility), the position and the page size.
 */
export class SearchCache<V> {
  private generation: number | null = null;
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(generation: number, key: string): V | undefined {
    if (generation !== this.generation) return undefined;
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(generation: number, key: string, value: V): void {
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    this.entries.set(key, value);
    if (this.entries.size > this.capacity)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
