import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { Spinner } from '../../../components/spinner';
import { paths } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { useRecentPages } from '../../../api/pages';
import { PageList } from './page-list';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useState } from 'react';
import { TemplateDialog } from './template-dialog';

export function HomeScreen() {
  const user = useCurrentUser();
  const recent = useRecentPages(15);
  const [choosing, setChoosing] = useState(false);
  useDocumentTitle(null);
  return (
    <div className="screen screen--narrow">
      <header className="screen__header">
        <h1 className="screen__title">Welcome, {user.displayName || user.username}</h1>
        {canEdit(user) && (
          <div className="screen__actions">
            <button type="button" className="button" onClick={() => setChoosing(true)}>
              New page from template
            </button>
            <Link to={paths.newPage()} className="button button--primary">
              New page
            </Link>
          </div>
        )}
      </header>
      {choosing && <TemplateDialog onClose={() => setChoosing(false)} />}
      <h2 className="section-title">Recently updated</h2>
      {recent.isPending ? (
        <Spinner />
      ) : recent.items.length === 0 ? (
        <EmptyState>No pages yet.{canEdit(user) && ' Create the first one.'}</EmptyState>
      ) : (
        <PageList pages={recent.items} label="Recently updated" />
      )}
      <LoadMore list={recent} />
    </div>
  );
}

export default HomeScreen;
