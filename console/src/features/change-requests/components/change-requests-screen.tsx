import { paths } from '../../../lib/routes';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatRelative } from '../../../lib/format';
import { useChangeRequests, type StateFilter } from '../api/change-requests';

const FILTERS: StateFilter[] = ['open', 'merged', 'closed', 'all'];

/** The change requests the person may see, by state (open first), newest first. */
export function ChangeRequestsScreen() {
  useDocumentTitle('Change requests');
  const [state, setState] = useState<StateFilter>('open');
  const list = useChangeRequests(state);
  return (
    <section className="screen" aria-labelledby="change-requests-title">
      <h1 id="change-requests-title" className="screen__title">
        Change requests
      </h1>
      <p className="screen__lead">
        Proposed changes to pages, reviewed before they go live. Propose one from the editor.
      </p>
      <label className="field field--inline">
        <span className="field__label">State</span>
        <select
          className="input"
          value={state}
          onChange={(e) => setState(e.target.value as StateFilter)}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <ProblemMessage error={list.error} />
      {list.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Change requests"
          columns={['Request', 'State', 'Author', 'Pages', 'Updated']}
          rows={list.items}
          rowKey={(r) => r.id}
          renderRow={(r) => (
            <tr>
              <th scope="row" data-label="Request">
                <Link to={paths.changeRequest(r.id)}>
                  #{r.id} {r.title}
                </Link>
              </th>
              <td data-label="State">
                <span className={`badge-pill cr-state cr-state--${r.state}`}>{r.state}</span>
              </td>
              <td data-label="Author">{r.author ?? '—'}</td>
              <td data-label="Pages">{r.slugs.join(', ')}</td>
              <td data-label="Updated">{formatRelative(r.updatedAt)}</td>
            </tr>
          )}
          empty={state === 'open' ? 'No open change requests.' : 'No change requests here.'}
        />
      )}
      <LoadMore list={list} />
    </section>
  );
}

export default ChangeRequestsScreen;
