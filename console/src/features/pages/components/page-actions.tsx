import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Page } from '../../../api/types';
import { ProblemMessage } from '../../../components/problem-message';
import { paths } from '../../../lib/slugs';
import { WatchButton } from '../../../components/watch-button';
import { ExportMenu } from './export-menu';

// The print dialog is a chunk of its own, loaded when it is first opened.
const PrintDialog = lazy(() => import('./print-dialog'));
// So are the move and bin dialogs: most readers never open them.
const MoveDialog = lazy(() => import('./move-dialog'));
const BinDialog = lazy(() => import('./bin-dialog'));

export function PageActions({
  page,
  canEdit,
  canBin,
}: {
  page: Page;
  canEdit: boolean;
  /** May move the page to the bin (the API's DELETE: administrators). */
  canBin: boolean;
}) {
  const [printing, setPrinting] = useState(false);
  const [dialog, setDialog] = useState<'move' | 'bin' | null>(null);
  const [error, setError] = useState<unknown>(null);

  return (
    <>
      <div className="page-actions" role="toolbar" aria-label="Page actions">
        {canEdit ? (
          <Link to={paths.edit(page.slug)} className="button button--primary">
            Edit
          </Link>
        ) : (
          // Someone who may not edit proposes changes for an editor to review (docs/review.md).
          <Link to={paths.edit(page.slug)} className="button button--primary">
            Propose changes
          </Link>
        )}
        <button type="button" className="button" onClick={() => setPrinting(true)}>
          Print…
        </button>
        <ExportMenu slug={page.slug} onPrint={() => setPrinting(true)} onError={setError} />
        <Link to={paths.history(page.slug)} className="button">
          Revisions
        </Link>
        <WatchButton slug={page.slug} />
        {canEdit && (
          <button type="button" className="button" onClick={() => setDialog('move')}>
            Move
          </button>
        )}
        {canBin && (
          <button
            type="button"
            className="button button--danger-quiet"
            onClick={() => setDialog('bin')}
          >
            Move to bin
          </button>
        )}
      </div>
      <ProblemMessage error={error} title="The export failed." />
      {printing && (
        <Suspense fallback={null}>
          <PrintDialog slug={page.slug} title={page.title} onClose={() => setPrinting(false)} />
        </Suspense>
      )}
      {dialog && (
        <Suspense fallback={null}>
          {dialog === 'move' ? (
            <MoveDialog page={page} onClose={() => setDialog(null)} />
          ) : (
            <BinDialog page={page} onClose={() => setDialog(null)} />
          )}
        </Suspense>
      )}
    </>
  );
}
