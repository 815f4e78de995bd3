import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Page } from '../../../api/types';
import { ProblemMessage } from '../../../components/problem-message';
import { saveBlob } from '../../../lib/download';
import { paths } from '../../../lib/slugs';
import { exportPage } from '../api/pages';
import { WatchButton } from '../../notifications/components/watch-button';

// The print dialog is a chunk of its own, loaded when it is first opened.
const PrintDialog = lazy(() => import('../../print/components/print-dialog'));

export function PageActions({ page, canEdit }: { page: Page; canEdit: boolean }) {
  const [printing, setPrinting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const download = async () => {
    setExporting(true);
    setError(null);
    try {
      const file = await exportPage(page.slug);
      saveBlob(file.blob, file.filename);
    } catch (e) {
      setError(e);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className="page-actions" role="toolbar" aria-label="Page actions">
        {canEdit && (
          <Link to={paths.edit(page.slug)} className="button button--primary">
            Edit
          </Link>
        )}
        <button type="button" className="button" onClick={() => setPrinting(true)}>
          Print…
        </button>
        <button
          type="button"
          className="button"
          onClick={download}
          disabled={exporting}
          aria-busy={exporting}
        >
          Export
        </button>
        <Link to={paths.history(page.slug)} className="button">
          Revisions
        </Link>
        <WatchButton slug={page.slug} />
      </div>
      <ProblemMessage error={error} title="The export failed." />
      {printing && (
        <Suspense fallback={null}>
          <PrintDialog slug={page.slug} title={page.title} onClose={() => setPrinting(false)} />
        </Suspense>
      )}
    </>
  );
}
