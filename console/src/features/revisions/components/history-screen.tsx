import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { RevisionSummary } from '../../../api/types';
import { ConfirmDialog } from '../../../components/dialog';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { formatDateTime } from '../../../lib/format';
import { paths, slugFromSplat } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { usePage } from '../../../api/pages';
import { useRestoreRevision, useRevision, useRevisions } from '../api/revisions';
import { DiffView } from '../../../components/diff-view';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useMediaQuery } from '../../../components/use-media-query';

const ACTIONS: Record<string, string> = {
  created: 'created',
  updated: 'edited',
  restored: 'restored',
  imported: 'imported',
};

/** Below this width two columns of text are too narrow to read: the diff is inline. */
const PHONE = '(max-width: 40rem)';

function Comparison({ from, to }: { from: RevisionSummary; to: RevisionSummary }) {
  const [chosen, setMode] = useState<'split' | 'inline'>('split');
  const phone = useMediaQuery(PHONE);
  const mode = phone ? 'inline' : chosen;
  const before = useRevision(from.id);
  const after = useRevision(to.id);
  if (before.isPending || after.isPending) return <Spinner label="Loading the revisions…" />;
  if (before.error || after.error) return <ProblemMessage error={before.error ?? after.error} />;
  return (
    <section className="comparison" aria-labelledby="comparison-title">
      <div className="comparison__header">
        <h2 id="comparison-title" className="section-title">
          Revision {from.revision} → {to.revision}
        </h2>
        {!phone && (
          <div className="segmented" role="group" aria-label="Diff layout">
            <button type="button" aria-pressed={mode === 'split'} onClick={() => setMode('split')}>
              Side by side
            </button>
            <button
              type="button"
              aria-pressed={mode === 'inline'}
              onClick={() => setMode('inline')}
            >
              Inline
            </button>
          </div>
        )}
      </div>
      {before.data!.title !== after.data!.title && (
        <p className="comparison__title-change">
          Title: “{before.data!.title}” → “{after.data!.title}”
        </p>
      )}
      <DiffView
        before={before.data!.content}
        after={after.data!.content}
        beforeLabel={`Revision ${from.revision}`}
        afterLabel={`Revision ${to.revision}`}
        mode={mode}
      />
    </section>
  );
}

interface RevisionRowProps {
  revision: RevisionSummary;
  current: number;
  canRestore: boolean;
  isFrom: boolean;
  isTo: boolean;
  onFrom: () => void;
  onTo: () => void;
  onRestore: () => void;
}

/** One revision: who and when, the two compare radios, and Restore for an older one. */
function RevisionRow({ revision: r, current, canRestore, ...props }: RevisionRowProps) {
  return (
    <tr>
      <th scope="row">
        {r.revision} <span className="revisions__action">{ACTIONS[r.action] ?? r.action}</span>
        {r.revision === current && <span className="badge-pill">current</span>}
        <div className="revisions__title">{r.title}</div>
        {r.summary && <div className="revisions__summary">{r.summary}</div>}
      </th>
      <td data-label="Author">
        {r.author ?? '—'}
        {r.coAuthors.length > 0 && (
          <div className="revisions__summary">with {r.coAuthors.join(', ')}</div>
        )}
      </td>
      <td data-label="Time">{formatDateTime(r.createdAt)}</td>
      <td data-label="From">
        <input
          type="radio"
          name="from"
          aria-label={`Compare from revision ${r.revision}`}
          checked={props.isFrom}
          onChange={props.onFrom}
        />
      </td>
      <td data-label="To">
        <input
          type="radio"
          name="to"
          aria-label={`Compare to revision ${r.revision}`}
          checked={props.isTo}
          onChange={props.onTo}
        />
      </td>
      <td>
        {canRestore && r.revision !== current && (
          <button
            type="button"
            className="button button--small"
            aria-label={`Restore revision ${r.revision}`}
            onClick={props.onRestore}
          >
            Restore
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * The two revisions to compare, chosen with the From and To radios; until chosen, the newest
 * revision against the one before it.
 */
function useComparedRevisions(items: RevisionSummary[]) {
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const toId = to ?? items[0]?.id ?? null;
  const fromId = from ?? items[1]?.id ?? null;
  return {
    fromId,
    toId,
    fromRev: items.find((r) => r.id === fromId),
    toRev: items.find((r) => r.id === toId),
    setFrom,
    setTo,
    reset: () => {
      setFrom(null);
      setTo(null);
    },
  };
}

export function HistoryScreen() {
  const slug = slugFromSplat(useParams()['*']);
  const user = useCurrentUser();
  const page = usePage(slug);
  const revisions = useRevisions(slug);
  const restore = useRestoreRevision(slug);
  useDocumentTitle(`Revisions of ${page.data?.title ?? slug}`);
  const compared = useComparedRevisions(revisions.items);
  const { fromRev, toRev } = compared;
  const [restoring, setRestoring] = useState<RevisionSummary | null>(null);

  if (revisions.isPending || page.isPending) return <Spinner />;
  if (revisions.error || page.error)
    return <ProblemMessage error={revisions.error ?? page.error} />;
  const current = page.data!.revision;

  return (
    <div className="screen">
      <header className="screen__header">
        <div>
          <p className="screen__eyebrow">
            <Link to={paths.page(slug)}>{page.data!.title}</Link>
          </p>
          <h1 className="screen__title">Revisions</h1>
        </div>
      </header>
      <ProblemMessage error={restore.error} title="Not restored." />
      <RecordTable
        caption="Revisions, newest first; choose two to compare"
        columns={['Revision', 'Author', 'Time', 'From', 'To']}
        actions
        scroll={false}
        className="revisions"
        rows={revisions.items}
        rowKey={(r) => r.id}
        renderRow={(r) => (
          <RevisionRow
            revision={r}
            current={current}
            canRestore={canEdit(user)}
            isFrom={r.id === compared.fromId}
            isTo={r.id === compared.toId}
            onFrom={() => compared.setFrom(r.id)}
            onTo={() => compared.setTo(r.id)}
            onRestore={() => setRestoring(r)}
          />
        )}
      />
      <LoadMore list={revisions} label="Older revisions" />
      {fromRev && toRev && fromRev.id !== toRev.id && <Comparison from={fromRev} to={toRev} />}
      {restoring && (
        <ConfirmDialog
          title={`Restore revision ${restoring.revision}?`}
          message={`The page gets its text and details from revision ${restoring.revision} as a new revision; no revision is lost.`}
          confirmLabel="Restore"
          busy={restore.isPending}
          onCancel={() => setRestoring(null)}
          onConfirm={() =>
            restore.mutate(
              { id: restoring.id, baseRevision: current },
              { onSettled: () => setRestoring(null), onSuccess: compared.reset },
            )
          }
        />
      )}
    </div>
  );
}

export default HistoryScreen;
