import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { RecordTable } from '../../../components/record-table';
import { paths } from '../../../lib/slugs';
import {
  filterPlan,
  PLAN_ACTION_LABELS,
  planRows,
  summary,
  type ImportReport,
  type PlanAction,
  type PlanRow,
} from '../model/import-plan';

const PAGE = 200;

/** One planned (or done) action: what, on which page or file, and why. */
function PlanRowView({ row, linked }: { row: PlanRow; linked: boolean }) {
  return (
    <tr>
      <td data-label="What">
        <span className={`import__action import__action--${row.isPage ? row.action : 'problem'}`}>
          {PLAN_ACTION_LABELS[row.action]}
        </span>
      </td>
      <th scope="row">
        {linked && row.isPage ? (
          <Link to={paths.page(row.subject)}>{row.subject}</Link>
        ) : (
          row.subject
        )}
      </th>
      <td data-label="Details">{row.detail}</td>
    </tr>
  );
}

/**
 * A report as a table: the dry run's "Plan" (what would happen) or the import's "Report"
 * (what happened, each page linked), filterable by action and text.
 */
export function PlanTable({ report, name }: { report: ImportReport; name: 'Plan' | 'Report' }) {
  const rows = useMemo(() => planRows(report), [report]);
  const actions = useMemo(() => [...new Set(rows.map((r) => r.action))], [rows]);
  const [action, setAction] = useState<PlanAction | ''>('');
  const [text, setText] = useState('');
  const [shown, setShown] = useState(PAGE);
  const visible = filterPlan(rows, action, text);
  const linked = name === 'Report';

  return (
    <section className="import__result" aria-label={name === 'Plan' ? 'Dry run' : 'Import report'}>
      <h2 className="section-title">{name === 'Plan' ? 'Dry run: the plan' : 'Report'}</h2>
      <p className="import__summary">{summary(report)}.</p>
      <div className="import__filters">
        <Field label="Show">
          <select
            className="input"
            value={action}
            onChange={(e) => setAction(e.target.value as PlanAction | '')}
          >
            <option value="">Everything ({rows.length})</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {PLAN_ACTION_LABELS[a]} ({rows.filter((r) => r.action === a).length})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Filter">
          <input
            className="input"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
      </div>
      <RecordTable
        caption={name}
        columns={['What', 'Page or file', 'Details']}
        rows={visible.slice(0, shown)}
        rowKey={(row) => `${row.action}:${row.subject}:${row.detail}`}
        renderRow={(row) => <PlanRowView row={row} linked={linked} />}
      />
      {visible.length === 0 && <p className="empty">Nothing matches.</p>}
      {visible.length > shown && (
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setShown((n) => n + PAGE * 5)}
        >
          Show more ({visible.length - shown} left)
        </button>
      )}
    </section>
  );
}
