import { useEffect, useRef, useState } from 'react';
import { saveDraft, saveDraftOnExit, type DraftBody } from '../../drafts/api/drafts';

export type DraftStatus = 'idle' | 'saving' | 'saved' | 'failed';

const INTERVAL_MS = 3000;

/**
 * Saves the editor's text as the person's private server draft every few seconds while it
 * changes, and once more when they leave (another screen, a reload, a closed tab).
 * `version` counts changes; `enabled` is off until an older draft has been resumed or discarded,
 * so that one is never overwritten unseen.
 */
export function useAutosave(
  key: string,
  body: () => DraftBody,
  version: number,
  enabled: boolean,
  /** After the save made on leaving: screens showing the draft read it again. */
  onExitSaved: () => void,
) {
  const [status, setStatus] = useState<DraftStatus>('idle');
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const saved = useRef(version);
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef({ key, body, version, enabled, onExitSaved });
  latest.current = { key, body, version, enabled, onExitSaved };

  const dirty = () => latest.current.enabled && latest.current.version !== saved.current;

  useEffect(() => {
    const timer = setInterval(async () => {
      if (!dirty()) return;
      const { key: k, body: b, version: v } = latest.current;
      setStatus('saving');
      try {
        const request = saveDraft(k, b());
        inFlight.current = request.catch(() => undefined);
        await request;
        saved.current = v;
        setSavedAt(new Date());
        setStatus('saved');
      } catch {
        setStatus('failed');
      }
    }, INTERVAL_MS);
    const onExit = () => {
      if (!dirty()) return;
      const { onExitSaved: done } = latest.current;
      void saveDraftOnExit(latest.current.key, latest.current.body()).then(done);
      saved.current = latest.current.version;
    };
    const onVisibility = () => document.visibilityState === 'hidden' && onExit();
    window.addEventListener('pagehide', onExit);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', onExit);
      document.removeEventListener('visibilitychange', onVisibility);
      onExit();
    };
    // One timer for the editor's life; it reads the latest values through the ref.
  }, []);

  return {
    status,
    savedAt,
    dirty: enabled && version !== saved.current,
    /** After a save of the page: nothing left to keep as a draft. */
    markClean: (v: number) => {
      saved.current = v;
    },
    /** Resolves once a draft save under way has finished (before the draft is deleted). */
    settled: () => inFlight.current,
  };
}
