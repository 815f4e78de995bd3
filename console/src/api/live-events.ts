import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { components } from './kb-api';
import { LIST_KEYS, liveStore, type LiveChange, type LiveEvent } from '../lib/live-store';

/**
 * Every kind the stream names (EventSource hears only the names it listens for); true for the
 * page events that count as a change of the page. Keyed by the API's EventType, so a kind added
 * to the API fails the build until it is listed here.
 */
const EVENT_TYPES: Record<components['schemas']['EventType'], boolean> = {
  'page.created': true,
  'page.updated': true,
  'page.binned': true,
  'page.restored': true,
  'page.purged': true,
  'page.moved': true,
  'redirect.deleted': true,
  'import.finished': true,
  'comment.created': false,
  'comment.updated': false,
  'comment.deleted': false,
  'comment.resolved': false,
  'comment.reopened': false,
  'change_request.created': false,
  'change_request.updated': false,
  'change_request.approved': false,
  'change_request.changes_requested': false,
  'change_request.merged': false,
  'change_request.closed': false,
  'change_request.commented': false,
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
    // A comment refreshes the open page's comments, not the page.
    const onComment = () => void queryClient.invalidateQueries({ queryKey: ['/api/comments'] });
    for (const [type, pageChange] of Object.entries(EVENT_TYPES)) {
      if (pageChange) source.addEventListener(type, onEvent);
      else if (type.startsWith('comment.')) source.addEventListener(type, onComment);
    }
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
