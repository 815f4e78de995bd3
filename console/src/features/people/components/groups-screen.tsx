import { useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate } from '../../../lib/format';
import { useCreateGroup, useGroups } from '../api/people';

export function GroupsScreen() {
  useDocumentTitle('Groups');
  const groups = useGroups();
  const create = useCreateGroup();
  const [name, setName] = useState('');
  const problems = create.error instanceof ApiProblem ? create.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim(), { onSuccess: () => setName('') });
  };

  return (
    <section className="screen screen--narrow" aria-labelledby="groups-title">
      <h1 id="groups-title" className="screen__title">
        Groups
      </h1>
      <p className="screen__lead">
        A page with groups is seen only by their members (and administrators). Give people groups on
        the Users screen.
      </p>
      <form className="admin__inline-form" onSubmit={submit}>
        <Field
          label="New group"
          hint="Letters, digits, “.”, “_” or “-”."
          errors={problems?.errorsFor('name') ?? []}
        >
          <input
            className="input"
            required
            maxLength={64}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          Create group
        </button>
      </form>
      {!problems?.errors.length && <ProblemMessage error={create.error} title="Not created." />}
      <ProblemMessage error={groups.error} />
      {groups.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Groups"
          columns={['Group', 'Created']}
          stack={false}
          scroll={false}
          rows={groups.data?.items ?? []}
          rowKey={(group) => group.id}
          empty="No groups yet."
          renderRow={(group) => (
            <tr>
              <th scope="row">{group.name}</th>
              <td>{formatDate(group.createdAt)}</td>
            </tr>
          )}
        />
      )}
    </section>
  );
}

export default GroupsScreen;
