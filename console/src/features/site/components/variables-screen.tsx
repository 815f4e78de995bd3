import { useState, type FormEvent } from 'react';
import { ApiProblem, type FieldError } from '../../../api/problem';
import { FieldErrors } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useSaveSiteVariables, useSiteVariables } from '../api/site';

interface Row {
  key: number;
  name: string;
  value: string;
}

let nextKey = 0;
const toRows = (variables: Record<string, string>): Row[] =>
  Object.entries(variables).map(([name, value]) => ({ key: nextKey++, name, value }));

function VariableRow({
  row,
  index,
  errors,
  onChange,
  onRemove,
}: {
  row: Row;
  index: number;
  errors: FieldError[];
  onChange: (change: Partial<Row>) => void;
  onRemove: () => void;
}) {
  const label = row.name || `variable ${index + 1}`;
  return (
    <tr>
      <td>
        <input
          className="input input--mono"
          aria-label={`Name of variable ${index + 1}`}
          value={row.name}
          onChange={(e) => onChange({ name: e.target.value })}
        />
        <FieldErrors errors={errors} />
      </td>
      <td>
        <input
          className="input"
          aria-label={`Value of ${label}`}
          value={row.value}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      </td>
      <td>
        <button
          type="button"
          className="button button--small button--danger-quiet"
          aria-label={`Remove ${label}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

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
      <RecordTable
        caption="Site variables"
        columns={['Name', 'Value']}
        actions
        scroll={false}
        className="admin__variables"
        rows={rows}
        rowKey={(row) => row.key}
        renderRow={(row, index) => (
          <VariableRow
            row={row}
            index={index}
            errors={problems?.errorsFor(`variables.${row.name.trim()}`) ?? []}
            onChange={(change) => edit(row.key, change)}
            onRemove={() => setRows((all) => all.filter((r) => r.key !== row.key))}
          />
        )}
      />
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
