/** One event of the live stream (GET /api/events/stream), as the feed shapes it. */
export interface LiveEvent {
  id: string;
  type: string;
  occurredAt: string;
  data: { slug?: string; title?: string; revision?: number; actorId?: string };
}

/** The newest change of one page that arrived over the stream. */
export interface LiveChange {
  type: string;
  revision: number | null;
  actorId: string | null;
  /** The stream's event id: a new change of the same page has a larger one. */
  seq: number;
}

type Listener = () => void;

/**
 * The latest change per page slug, for screens that show "Updated by … — Show" or warn before
 * a save; kept outside the query cache because it is news about data, not data.
 */
export class LiveStore {
  private readonly changes = new Map<string, LiveChange>();
  private readonly listeners = new Set<Listener>();

  record(event: LiveEvent): void {
    const slug = event.data.slug;
    if (!slug) return;
    this.changes.set(slug, {
      type: event.type,
      revision: typeof event.data.revision === 'number' ? event.data.revision : null,
      actorId: event.data.actorId ?? null,
      seq: Number(event.id) || 0,
    });
    this.listeners.forEach((l) => l());
  }

  change(slug: string): LiveChange | undefined {
    return this.changes.get(slug);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const liveStore = new LiveStore();

/** Query keys whose lists may change with any page event (tree, recent, tags, tag pages, graph). */
export const LIST_KEYS = ['/api/tree', '/api/recent', '/api/tags', '/api/pages', '/api/graph'];
