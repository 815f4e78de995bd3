import { useEffect, useRef, useState } from 'react';
import { isProblem } from '../../../api/problem';
import { describeBytes, utf8Bytes } from '../../../lib/byte-size';
import { saveDraft, saveDraftOnExit, type DraftBody } from '../../../api/drafts';

export type DraftStatus = 'idle' | 'saving' | 'saved' | 'failed' | 'too_large';

const INTERVAL_MS = 3000;

/**
 * Why a draft was refused as too large, in words: the server's own sentence ("This page holds
 * 3.1 MiB; a page may hold at most 2 MiB.") or, when the request itself was too large for the
 * server to read, the text's size.
 */
function tooLargeMessage(error: unknown, body: DraftBody): string {
  const code = isProblem(error) ? error.code : '';
  if ((code === 'page_too_large' || code === 'draft_too_large') && isProblem(error)) {
    return error.message;
  }
  return `This page holds ${describeBytes(utf8Bytes(body.content))}; that is more than kb accepts.`;
}

/**
 * Saves the editor's text as the person's private server draft every few seconds while it
 * changes, and once more when they leave (another screen, a reload, a closed tab).
 * `version` counts changes; `enabled` is off until an older draft has been resumed or discarded,
 * so that one is never overwritten unseen. A draft refused as too large (413) is not sent again
 * until the text changes: the same text would be refused again.
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
  const [problem, setProblem] = useState<string | null>(null);
  const saved = useRef(version);
  const refused = useRef<number | null>(null);
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef({ key, body, version, enabled, onExitSaved });
  latest.current = { key, body, version, enabled, onExitSaved };

  const dirty = () =>
    latest.current.enabled &&
    latest.current.version !== saved.current &&
    latest.current.version !== refused.current;

  useEffect(() => {
    const timer = setInterval(async () => {
      if (!dirty()) return;
      const { key: k, body: b, version: v } = latest.current;
      const sent = b();
      setStatus('saving');
      try {
        const request = saveDraft(k, sent);
        inFlight.current = request.catch(() => undefined);
        await request;
        saved.current = v;
        refused.current = null;
        setProblem(null);
        setSavedAt(new Date());
        setStatus('saved');
      } catch (error) {
        if (isProblem(error, 413)) {
          refused.current = v;
          setProblem(tooLargeMessage(error, sent));
          setStatus('too_large');
        } else setStatus('failed');
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
    /** Why the last draft was refused (413), in words; null otherwise. */
    problem,
    dirty: enabled && version !== saved.current,
    /** After a save of the page: nothing left to keep as a draft. */
    markClean: (v: number) => {
      saved.current = v;
    },
    /** Resolves once a draft save under way has finished (before the draft is deleted). */
    settled: () => inFlight.current,
  };
}
