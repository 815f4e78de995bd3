import { Link } from 'react-router';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { useReviewDue } from '../api/site';

export function ReviewDueScreen() {
  useDocumentTitle('Review due');
  const due = useReviewDue();
  return (
    <section className="screen" aria-labelledby="review-title">
      <h1 id="review-title" className="screen__title">
        Review due
      </h1>
      <p className="screen__lead">
        Pages past their next review date, the longest overdue first. Their owners were told once.
      </p>
      <ProblemMessage error={due.error} />
      {due.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Pages due for review"
          columns={['Page', 'Owner', 'Review was due']}
          rows={due.items}
          rowKey={(page) => page.slug}
          empty="No page is due for review."
          renderRow={(page) => (
            <tr>
              <th scope="row">
                <Link to={paths.page(page.slug)}>{page.title}</Link>
                <div className="admin__slug">{page.slug}</div>
              </th>
              <td data-label="Owner">{page.owner ?? 'Nobody'}</td>
              <td data-label="Review was due" className="admin__overdue">
                {formatDate(page.nextReviewAt)} ({formatRelative(page.nextReviewAt)})
              </td>
            </tr>
          )}
        />
      )}
      <LoadMore list={due} />
    </section>
  );
}

export default ReviewDueScreen;
