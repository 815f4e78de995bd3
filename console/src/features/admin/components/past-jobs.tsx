import { ProblemMessage } from '../../../components/problem-message';
import { formatDateTime } from '../../../lib/format';
import type { ImportJob } from '../api/import';

const FORMAT_NAMES: Record<string, string> = {
  markdown: 'Markdown',
  wikijs: 'Wiki.js',
  confluence: 'Confluence',
};

/** Recent import jobs, newest first; each finished one's report opens below the form. */
export function PastJobs({
  jobs,
  error,
  onShow,
}: {
  jobs: ImportJob[];
  error: unknown;
  onShow: (job: ImportJob) => void;
}) {
  return (
    <section aria-labelledby="recent-jobs">
      <h2 id="recent-jobs" className="section-title">
        Recent jobs
      </h2>
      <ProblemMessage error={error} />
      {jobs.length === 0 ? (
        <p className="empty">No import jobs yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table table--stack">
            <caption className="visually-hidden">Recent jobs</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Format</th>
                <th scope="col">Kind</th>
                <th scope="col">By</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id}>
                  <th scope="row">{formatDateTime(job.createdAt)}</th>
                  <td data-label="Format">{FORMAT_NAMES[job.format] ?? job.format}</td>
                  <td data-label="Kind">{job.dryRun ? 'Dry run' : 'Import'}</td>
                  <td data-label="By">{job.createdBy?.username ?? '—'}</td>
                  <td data-label="State">{job.state}</td>
                  <td>
                    {(job.report || job.problem) && (
                      <button
                        type="button"
                        className="button button--small"
                        aria-label={`${job.dryRun ? 'Show plan' : 'Show report'} of ${formatDateTime(job.createdAt)}`}
                        onClick={() => onShow(job)}
                      >
                        {job.dryRun ? 'Show plan' : 'Show report'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
