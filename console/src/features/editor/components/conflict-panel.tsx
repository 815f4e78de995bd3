import { formatDateTime } from '../../../lib/format';
import { DiffView } from '../../../components/diff-view';
import type { EditorSession } from './use-editor-session';

/**
 * Someone saved the page while this person edited it: their text and the current revision
 * side by side, and the three ways on. Nothing is written until they choose.
 */
export function ConflictPanel({ session }: { session: EditorSession }) {
  const { conflict, fields } = session;
  if (!conflict || !fields) return null;
  const theirs = conflict.theirs;
  return (
    <section className="conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title" className="conflict__title">
        This page changed while you were editing
      </h2>
      <p>
        {theirs.updatedBy ?? 'Someone'} saved revision {theirs.revision} at{' '}
        {formatDateTime(theirs.updatedAt)}. Your text is not lost: choose how to go on.
      </p>
      <DiffView
        before={theirs.content}
        after={fields.content}
        beforeLabel={`Current revision ${theirs.revision}`}
        afterLabel="Your text"
        mode="split"
      />
      <div className="conflict__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={session.keepMine}
          disabled={session.saving}
        >
          Keep mine
        </button>
        <button
          type="button"
          className="button"
          onClick={session.takeTheirs}
          disabled={session.saving}
        >
          Take theirs
        </button>
        <button type="button" className="button" onClick={session.merge} disabled={session.saving}>
          Merge
        </button>
      </div>
      <p className="conflict__help">
        <strong>Keep mine</strong> saves your text as the next revision on top of theirs.{' '}
        <strong>Take theirs</strong> drops your changes and continues from revision{' '}
        {theirs.revision}. <strong>Merge</strong> combines both and marks the lines you both changed
        for you to settle by hand.
      </p>
    </section>
  );
}
