import { useState, type FormEvent } from 'react';
import { ApiProblem, type FieldError } from '../../../api/problem';
import type { AccessToken, Role } from '../../../api/types';
import { ConfirmDialog } from '../../../components/dialog';
import { Field, FieldErrors } from '../../../components/field';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { formatDate, formatRelative } from '../../../lib/format';
import { useCurrentUser } from '../../../api/me';
import {
  TOKEN_PERMISSIONS,
  useCreateToken,
  useRevokeToken,
  useTokens,
  type TokenPermission,
} from '../../../api/tokens';
import { useDocumentTitle } from '../../../components/use-document-title';

const ROLES: Role[] = ['reader', 'editor', 'admin'];

function NewTokenSecret({
  token,
  onDone,
}: {
  token: AccessToken & { token: string };
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(token.token);
    setCopied(true);
  };
  return (
    <section className="secret" aria-labelledby="secret-title">
      <h2 id="secret-title" className="section-title">
        Your new token “{token.name}”
      </h2>
      <p>Copy it now: kb shows it only this once and keeps only its hash.</p>
      <div className="secret__row">
        <input
          className="input input--mono"
          readOnly
          value={token.token}
          aria-label="New token"
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button button--primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" className="secret__status">
        {copied ? 'Copied to the clipboard.' : ''}
      </p>
      <button type="button" className="button button--quiet" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/** The widest role a new token may act with: up to the person's own role. */
function ScopeField({
  value,
  onChange,
  errors,
}: {
  value: Role;
  onChange: (role: Role) => void;
  errors: FieldError[];
}) {
  const user = useCurrentUser();
  const allowed = ROLES.slice(0, ROLES.indexOf(user.role) + 1);
  return (
    <Field label="Scope" hint="The widest role the token acts with." errors={errors}>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value as Role)}>
        {allowed.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The patterns typed, one a line (commas also separate); none: undefined (every page). */
function patternsOf(text: string): string[] | undefined {
  const patterns = text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  return patterns.length > 0 ? patterns : undefined;
}

/** The problems of `paths` and of each pattern (`paths.0`, …). */
function pathErrors(problems: ApiProblem | null): FieldError[] {
  return (problems?.errors ?? []).filter(
    (e) => e.field === 'paths' || e.field.startsWith('paths.'),
  );
}

function CreateTokenForm({
  onCreated,
}: {
  onCreated: (t: AccessToken & { token: string }) => void;
}) {
  const user = useCurrentUser();
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [scope, setScope] = useState<Role>(user.role);
  const [paths, setPaths] = useState('');
  const [permissions, setPermissions] = useState<TokenPermission[]>([...TOKEN_PERMISSIONS]);
  const problems = create.error instanceof ApiProblem ? create.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name: name.trim(),
        scope,
        expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : undefined,
        paths: patternsOf(paths),
        permissions: permissions.length === TOKEN_PERMISSIONS.length ? undefined : permissions,
      },
      {
        onSuccess: (token) => {
          setName('');
          setExpires('');
          setPaths('');
          setPermissions([...TOKEN_PERMISSIONS]);
          onCreated(token);
        },
      },
    );
  };

  return (
    <form className="token-form" onSubmit={submit} aria-labelledby="new-token-title">
      <h2 id="new-token-title" className="section-title">
        New token
      </h2>
      <div className="token-form__fields">
        <Field label="Name" errors={problems?.errorsFor('name') ?? []}>
          <input
            className="input"
            value={name}
            required
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field label="Expires" hint="Empty: never." errors={problems?.errorsFor('expiresAt') ?? []}>
          <input
            className="input"
            type="date"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </Field>
        <ScopeField value={scope} onChange={setScope} errors={problems?.errorsFor('scope') ?? []} />
        <Field
          label="Paths"
          className="token-form__paths"
          hint="One slug pattern per line, such as docs/team-a/** (that page and all below). Empty: every page."
          errors={pathErrors(problems)}
        >
          <textarea
            className="input input--mono"
            rows={2}
            value={paths}
            placeholder="docs/team-a/**"
            onChange={(e) => setPaths(e.target.value)}
          />
        </Field>
        <fieldset className="token-form__permissions">
          <legend>Permissions</legend>
          <div className="checks">
            {TOKEN_PERMISSIONS.map((verb) => (
              <label key={verb} className="check">
                <input
                  type="checkbox"
                  checked={permissions.includes(verb)}
                  onChange={(e) =>
                    setPermissions((all) =>
                      e.target.checked
                        ? TOKEN_PERMISSIONS.filter((v) => v === verb || all.includes(v))
                        : all.filter((v) => v !== verb),
                    )
                  }
                />
                {verb}
              </label>
            ))}
          </div>
          <FieldErrors errors={problems?.errorsFor('permissions') ?? []} />
        </fieldset>
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          Create token
        </button>
      </div>
      {!problems?.errors.length && <ProblemMessage error={create.error} />}
    </form>
  );
}

function TokenRow({ token, onRevoke }: { token: AccessToken; onRevoke: () => void }) {
  return (
    <tr>
      <th scope="row">{token.name}</th>
      <td data-label="Token">
        <code>{token.prefix}…</code>
      </td>
      <td data-label="Scope">{token.scope}</td>
      <td data-label="Paths">
        {token.paths ? (
          <ul className="token-paths">
            {token.paths.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        ) : (
          'All pages'
        )}
      </td>
      <td data-label="Permissions">{token.permissions ? token.permissions.join(', ') : 'All'}</td>
      <td data-label="Created">{formatDate(token.createdAt)}</td>
      <td data-label="Expires">{token.expiresAt ? formatDate(token.expiresAt) : 'Never'}</td>
      <td data-label="Last used">
        {token.lastUsedAt ? formatRelative(token.lastUsedAt) : 'Never'}
      </td>
      <td>
        <button
          type="button"
          className="button button--small button--danger-quiet"
          aria-label={`Revoke ${token.name}`}
          onClick={onRevoke}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

export function TokensScreen() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  useDocumentTitle('Access tokens');
  const [created, setCreated] = useState<(AccessToken & { token: string }) | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);

  return (
    <div className="screen">
      <header className="screen__header">
        <h1 className="screen__title">Access tokens</h1>
      </header>
      <p className="screen__lead">
        Personal access tokens let scripts and CI pipelines call kb’s API as you: send{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>. Limit a pipeline’s token to the paths it
        writes: outside them it sees and changes nothing.
      </p>
      {created ? (
        <NewTokenSecret token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm onCreated={setCreated} />
      )}
      <ProblemMessage error={revoke.error} title="Not revoked." />
      {tokens.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Your tokens"
          columns={[
            'Name',
            'Token',
            'Scope',
            'Paths',
            'Permissions',
            'Created',
            'Expires',
            'Last used',
          ]}
          actions
          rows={tokens.items}
          rowKey={(token) => token.id}
          empty="You have no tokens."
          renderRow={(token) => <TokenRow token={token} onRevoke={() => setRevoking(token)} />}
        />
      )}
      <LoadMore list={tokens} />
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          message="Scripts using it stop working at once. This cannot be undone."
          confirmLabel="Revoke"
          danger
          busy={revoke.isPending}
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
        />
      )}
    </div>
  );
}

export default TokensScreen;
