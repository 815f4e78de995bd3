import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { formatDateTime } from '../../../lib/format';
import type { ImportJob } from '../api/import';

const FORMAT_NAMES: Record<string, string> = {
  markdown: 'Markdown',
  wikijs: 'Wiki.js',
  confluence: 'Confluence',
};

function PastJobRow({ job, onShow }: { job: ImportJob; onShow: () => void }) {
  const show = job.dryRun ? 'Show plan' : 'Show report';
  return (
    <tr>
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
            aria-label={`${show} of ${formatDateTime(job.createdAt)}`}
            onClick={onShow}
          >
            {show}
          </button>
        )}
      </td>
    </tr>
  );
}

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
      <RecordTable
        caption="Recent jobs"
        columns={['Started', 'Format', 'Kind', 'By', 'State']}
        actions
        rows={jobs}
        rowKey={(job) => job.id}
        empty="No import jobs yet."
        renderRow={(job) => <PastJobRow job={job} onShow={() => onShow(job)} />}
      />
    </section>
  );
}
