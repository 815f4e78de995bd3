/**
 * Recently inlined images as `data:` URIs, keyed by the content's SHA-256: stored bytes never
 * change under a hash, so an entry can never be stale. Least recently used entries go first
 * once the total passes `maxChars`; one oversized URI is simply not kept.
 */
export class DataUriCache {
  private readonly entries = new Map<string, string>();
  private total = 0;

  constructor(
    private readonly maxChars: number,
    private readonly maxEntryChars = Math.floor(maxChars / 8),
  ) {}

  get(sha256: string): string | undefined {
    const uri = this.entries.get(sha256);
    if (uri !== undefined) {
      this.entries.delete(sha256);
      this.entries.set(sha256, uri);
    }
    return uri;
  }

  set(sha256: string, uri: string): void {
    if (uri.length > this.maxEntryChars || this.entries.has(sha256)) return;
    this.entries.set(sha256, uri);
    this.total += uri.length;
    for (const [key, value] of this.entries) {
      if (this.total <= this.maxChars) break;
      this.entries.delete(key);
      this.total -= value.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
