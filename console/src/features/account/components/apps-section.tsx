import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { useOAuthGrants, useRevokeOAuthGrant, type OAuthGrant } from '../api/oauth-apps';

const ACCESS: Record<OAuthGrant['scope']['role'], string> = {
  reader: 'Read',
  editor: 'Read and write',
  admin: 'Administrator',
};

function AppRow({ grant }: { grant: OAuthGrant }) {
  const revoke = useRevokeOAuthGrant();
  return (
    <tr>
      <th scope="row">
        {grant.client.name}
        <ProblemMessage error={revoke.error} />
      </th>
      <td data-label="Access">
        {ACCESS[grant.scope.role]}
        {grant.scope.paths?.length ? ` (${grant.scope.paths.join(', ')})` : ''}
      </td>
      <td data-label="Authorised">
        <time dateTime={grant.createdAt} title={formatDateTime(grant.createdAt)}>
          {formatRelative(grant.createdAt)}
        </time>
      </td>
      <td className="row-actions">
        <button
          type="button"
          className="button button--small"
          disabled={revoke.isPending}
          aria-label={`Revoke ${grant.client.name}`}
          onClick={() => revoke.mutate(grant.id)}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

/** Third-party apps and AI assistants the person let act as them (OAuth), each revocable. */
export function AppsSection() {
  const grants = useOAuthGrants();
  return (
    <section className="account__section" aria-labelledby="apps-title">
      <h2 id="apps-title" className="section-title">
        Connected apps
      </h2>
      <p className="account__note">
        Apps and AI assistants you allowed to use kb as you. Revoking one ends its access at once.
      </p>
      <ProblemMessage error={grants.error} />
      {grants.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Connected apps"
          columns={['App', 'Access', 'Authorised']}
          actions
          rows={grants.data?.items ?? []}
          rowKey={(g) => g.id}
          renderRow={(g) => <AppRow grant={g} />}
          empty="You have not connected any app."
        />
      )}
    </section>
  );
}
