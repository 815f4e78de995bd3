import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { useReviewDue } from '../api/admin';

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
      ) : due.items.length === 0 ? (
        <EmptyState>No page is due for review.</EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="table table--stack">
            <caption className="visually-hidden">Pages due for review</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Owner</th>
                <th scope="col">Review was due</th>
              </tr>
            </thead>
            <tbody>
              {due.items.map((page) => (
                <tr key={page.slug}>
                  <th scope="row">
                    <Link to={paths.page(page.slug)}>{page.title}</Link>
                    <div className="admin__slug">{page.slug}</div>
                  </th>
                  <td data-label="Owner">{page.owner ?? 'Nobody'}</td>
                  <td data-label="Review was due" className="admin__overdue">
                    {formatDate(page.nextReviewAt)} ({formatRelative(page.nextReviewAt)})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore list={due} />
    </section>
  );
}

export default ReviewDueScreen;
