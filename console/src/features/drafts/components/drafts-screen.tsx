import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { slugOfDraftKey, useDiscardDraft, useDrafts, type DraftSummary } from '../../../api/drafts';

/** Where Resume continues a draft: its page's editor, or the new-page form, with the draft. */
function resumePath(slug: string): string {
  return `${slug ? paths.edit(slug) : paths.newPage()}?draft=resume`;
}

function DraftRow({ draft, slug }: { draft: DraftSummary; slug: string }) {
  const discard = useDiscardDraft(draft.key);
  const name = draft.title || slug || 'Untitled new page';
  return (
    <tr>
      <th scope="row">
        {slug ? <Link to={paths.page(slug)}>{name}</Link> : name}
        <div className="record-sub">{slug || 'New page'}</div>
        <ProblemMessage error={discard.error} />
      </th>
      <td data-label="Last saved">
        <time dateTime={draft.updatedAt} title={formatDateTime(draft.updatedAt)}>
          {formatRelative(draft.updatedAt)}
        </time>
      </td>
      <td className="row-actions">
        <Link
          to={resumePath(slug)}
          className="button button--small button--primary"
          aria-label={`Resume ${name}`}
        >
          Resume
        </Link>
        <button
          type="button"
          className="button button--small button--danger-quiet"
          aria-label={`Discard ${name}`}
          disabled={discard.isPending}
          onClick={() => discard.mutate()}
        >
          Discard
        </button>
      </td>
    </tr>
  );
}

function DraftsList() {
  const drafts = useDrafts();
  const rows = drafts.items.flatMap((draft) => {
    const slug = slugOfDraftKey(draft.key);
    return slug === null ? [] : [{ draft, slug }];
  });
  return (
    <>
      <ProblemMessage error={drafts.error} />
      {drafts.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="My drafts"
          columns={['Page', 'Last saved']}
          actions
          rows={rows}
          rowKey={(r) => r.draft.key}
          renderRow={(r) => <DraftRow draft={r.draft} slug={r.slug} />}
          empty="No drafts: everything you edited is saved."
        />
      )}
      <LoadMore list={drafts} />
    </>
  );
}

/** The person's unsaved work: every page they started editing and did not save. */
export function DraftsScreen() {
  useDocumentTitle('My drafts');
  const user = useCurrentUser();
  return (
    <section className="screen" aria-labelledby="drafts-title">
      <h1 id="drafts-title" className="screen__title">
        My drafts
      </h1>
      <p className="screen__lead">
        Text you were editing and have not saved. Drafts are private: nobody else sees them.
      </p>
      {canEdit(user) ? (
        <DraftsList />
      ) : (
        <EmptyState>
          Drafts are kept for people who edit pages; your account reads them.{' '}
          <Link to={paths.home()}>Go home</Link>
        </EmptyState>
      )}
    </section>
  );
}

export default DraftsScreen;
