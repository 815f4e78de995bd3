import { useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { useUpdateUser, type User } from '../api/people';
import { GroupChecks } from './group-checks';

/** Sets a new password for a user (they sign in with it; their sessions stay). */
export function ResetPasswordDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const problems = update.error instanceof ApiProblem ? update.error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: user.id, change: { password } }, { onSuccess: onClose });
  };
  return (
    <Dialog title={`Reset the password of ${user.username}`} onClose={onClose}>
      <form className="dialog__body" onSubmit={submit}>
        <Field
          label="New password"
          hint="At least 8 characters. Tell it to them another way."
          errors={problems?.errorsFor('password') ?? []}
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={256}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {!problems?.errors.length && <ProblemMessage error={update.error} />}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={update.isPending}>
            Set password
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Chooses the groups a user belongs to. */
export function UserGroupsDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser();
  const [groups, setGroups] = useState(user.groups);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: user.id, change: { groups } }, { onSuccess: onClose });
  };
  return (
    <Dialog title={`Groups of ${user.username}`} onClose={onClose}>
      <form className="dialog__body" onSubmit={submit}>
        <GroupChecks legend="Groups" value={groups} onChange={setGroups} />
        <ProblemMessage error={update.error} />
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={update.isPending}>
            Save groups
          </button>
        </div>
      </form>
    </Dialog>
  );
}
