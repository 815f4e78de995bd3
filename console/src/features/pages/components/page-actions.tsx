import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Page } from '../../../api/types';
import { ProblemMessage } from '../../../components/problem-message';
import { paths } from '../../../lib/slugs';
import { ExportMenu } from './export-menu';

// The print dialog is a chunk of its own, loaded when it is first opened.
const PrintDialog = lazy(() => import('../../print/components/print-dialog'));

export function PageActions({ page, canEdit }: { page: Page; canEdit: boolean }) {
  const [printing, setPrinting] = useState(false);
  const [error, setError] = useState<unknown>(null);

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
        <ExportMenu slug={page.slug} onPrint={() => setPrinting(true)} onError={setError} />
        <Link to={paths.history(page.slug)} className="button">
          Revisions
        </Link>
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
