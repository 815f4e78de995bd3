import { useState } from 'react';
import { formatRelative } from '../../../lib/format';
import { getRevisionContent } from '../api/editor';
import { draftEdits } from '../model/draft-into-live';
import type { CollabSession } from './use-collab';
import type { EditorSession } from './use-editor-session';

/**
 * A private draft of this page from before its live session (issue 30): offered once, as a
 * change to bring into the text everyone is editing (what others wrote since stays), or to
 * discard. Either way the draft is gone afterwards.
 */
export function LiveDraftOffer({
  session,
  collab,
}: {
  session: EditorSession;
  collab: CollabSession;
}) {
  const [busy, setBusy] = useState(false);
  const draft = session.offer;
  if (!draft) return null;

  const apply = async () => {
    setBusy(true);
    try {
      const page = session.page.data;
      const startedAt = (draft as { baseRevision?: unknown }).baseRevision;
      // The draft's change is what it did to the revision it started from.
      let base = page?.content ?? '';
      if (page && typeof startedAt === 'number' && startedAt !== page.revision && session.slug)
        base = (await getRevisionContent(session.slug, startedAt)) ?? base;
      const text = collab.text;
      const edits = draftEdits(base, draft.content, text.toString());
      // One change of this person's (Ctrl+Z takes it back), seen by everyone in the session.
      text.doc!.transact(() => {
        for (const edit of edits) {
          if (edit.length > 0) text.delete(edit.at, edit.length);
          if (edit.insert) text.insert(edit.at, edit.insert);
        }
      });
      await session.discardOffer();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="draft-notice" role="alert">
      <p>
        You have an unsaved draft of this page from {formatRelative(draft.updatedAt)}, from before
        this live session. Bring its changes into the page everyone is editing, or discard it.
      </p>
      <div className="draft-notice__actions">
        <button
          type="button"
          className="button button--primary button--small"
          disabled={busy}
          onClick={() => void apply()}
        >
          Apply draft to the live page
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void session.discardOffer()}
        >
          Discard draft
        </button>
      </div>
    </div>
  );
}
