import { useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import { FieldErrors } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useSaveSiteVariables, useSiteVariables } from '../api/admin';

interface Row {
  key: number;
  name: string;
  value: string;
}

let nextKey = 0;
const toRows = (variables: Record<string, string>): Row[] =>
  Object.entries(variables).map(([name, value]) => ({ key: nextKey++, name, value }));

function VariablesForm({ initial }: { initial: Record<string, string> }) {
  const save = useSaveSiteVariables();
  const [rows, setRows] = useState<Row[]>(() => toRows(initial));
  const [saved, setSaved] = useState(false);
  const problems = save.error instanceof ApiProblem ? save.error : null;
  const edit = (key: number, change: Partial<Row>) => {
    setSaved(false);
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const variables = Object.fromEntries(
      rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]),
    );
    save.mutate(variables, { onSuccess: () => setSaved(true) });
  };

  return (
    <form onSubmit={submit}>
      <table className="table table--stack admin__variables">
        <caption className="visually-hidden">Site variables</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.key}>
              <td>
                <input
                  className="input input--mono"
                  aria-label={`Name of variable ${index + 1}`}
                  value={row.name}
                  onChange={(e) => edit(row.key, { name: e.target.value })}
                />
                <FieldErrors errors={problems?.errorsFor(`variables.${row.name.trim()}`) ?? []} />
              </td>
              <td>
                <input
                  className="input"
                  aria-label={`Value of ${row.name || `variable ${index + 1}`}`}
                  value={row.value}
                  onChange={(e) => edit(row.key, { value: e.target.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="button button--small button--danger-quiet"
                  aria-label={`Remove ${row.name || `variable ${index + 1}`}`}
                  onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="admin__buttons">
        <button
          type="button"
          className="button"
          onClick={() => setRows((all) => [...all, { key: nextKey++, name: '', value: '' }])}
        >
          Add variable
        </button>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          Save variables
        </button>
        <span role="status" className="admin__status">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <ProblemMessage error={save.error} title="Not saved." />
    </form>
  );
}

export function VariablesScreen() {
  useDocumentTitle('Site variables');
  const variables = useSiteVariables();
  return (
    <section className="screen screen--narrow" aria-labelledby="variables-title">
      <h1 id="variables-title" className="screen__title">
        Variables
      </h1>
      <p className="screen__lead">
        Site-wide variables every page inherits: <code>{'{{name}}'}</code> in a page’s Markdown
        shows the value; a page’s own variables win.
      </p>
      <ProblemMessage error={variables.error} />
      {variables.isPending ? (
        <Spinner />
      ) : (
        variables.data && <VariablesForm initial={variables.data.variables} />
      )}
    </section>
  );
}

export default VariablesScreen;
