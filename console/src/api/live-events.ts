import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { components } from './kb-api';
import { LIST_KEYS, liveStore, type LiveChange, type LiveEvent } from '../lib/live-store';

/**
 * Every kind the stream names (EventSource hears only the names it listens for). Keyed by the
 * API's EventType, so a kind added to the API fails the build until it is listed here.
 */
const EVENT_TYPES: Record<components['schemas']['EventType'], true> = {
  'page.created': true,
  'page.updated': true,
  'page.binned': true,
  'page.restored': true,
  'page.purged': true,
  'page.moved': true,
  'redirect.deleted': true,
  'import.finished': true,
};

/**
 * Keeps one Server-Sent Events stream open per console (GET /api/events/stream, mounted once
 * in the shell): every page event or finished import refreshes the tree, Recent, tags and the
 * lists by tag, and is recorded per page for the open page's "Updated by … — Show". The
 * browser reconnects by itself and resumes with Last-Event-ID; `reset` (too far behind)
 * refreshes everything.
 */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events/stream');
    let pending: ReturnType<typeof setTimeout> | null = null;
    // A burst of events (a folder move, a mirror import) refreshes the lists once.
    const refreshLists = () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        for (const key of LIST_KEYS) void queryClient.invalidateQueries({ queryKey: [key] });
      }, 150);
    };
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as LiveEvent;
      liveStore.record({ ...event, id: message.lastEventId || event.id });
      refreshLists();
    };
    for (const type of Object.keys(EVENT_TYPES)) source.addEventListener(type, onEvent);
    source.addEventListener('reset', () => void queryClient.invalidateQueries());
    return () => {
      if (pending) clearTimeout(pending);
      source.close();
    };
  }, [enabled, queryClient]);
}

/** The newest change of the page at `slug` seen over the live stream, if any. */
export function useLiveChange(slug: string): LiveChange | undefined {
  return useSyncExternalStore(
    (listener) => liveStore.subscribe(listener),
    () => liveStore.change(slug),
  );
}
