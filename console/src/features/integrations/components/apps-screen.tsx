import { useState } from 'react';
import { ConfirmDialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { useBanOAuthClient, useOAuthClients, type OAuthClient } from '../api/apps';

function people(client: OAuthClient): string {
  if (client.grants.length === 0) return 'Nobody';
  return client.grants.map((g) => `${g.username ?? 'a removed user'} (${g.scope.role})`).join(', ');
}

function ClientRow({ client, onBan }: { client: OAuthClient; onBan: () => void }) {
  return (
    <tr>
      <th scope="row">
        {client.name}
        {client.name !== client.id && <code className="admin__client-id">{client.id}</code>}
      </th>
      <td data-label="Redirects to">{client.redirectUris.join(', ')}</td>
      <td data-label="Authorised by">{people(client)}</td>
      <td data-label="Registered">
        <time dateTime={client.createdAt} title={formatDateTime(client.createdAt)}>
          {formatRelative(client.createdAt)}
        </time>
      </td>
      <td className="row-actions">
        {client.bannedAt ? (
          <span>Banned</span>
        ) : (
          <button
            type="button"
            className="button button--small button--danger"
            aria-label={`Ban ${client.name}`}
            onClick={onBan}
          >
            Ban
          </button>
        )}
      </td>
    </tr>
  );
}

/** The apps registered with kb's authorization server (OAuth), and who authorised each. */
export function AppsScreen() {
  useDocumentTitle('Apps');
  const clients = useOAuthClients();
  const ban = useBanOAuthClient();
  const [banning, setBanning] = useState<OAuthClient | null>(null);
  return (
    <section className="screen" aria-labelledby="apps-title">
      <h1 id="apps-title" className="screen__title">
        Apps
      </h1>
      <p className="screen__lead">
        Third-party apps and AI assistants that registered with kb (OAuth). Banning one ends every
        person’s access through it at once, and it cannot ask again.
      </p>
      <ProblemMessage error={clients.error ?? ban.error} />
      {clients.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Registered apps"
          columns={['App', 'Redirects to', 'Authorised by', 'Registered']}
          actions
          rows={clients.data?.items ?? []}
          rowKey={(c) => c.id}
          renderRow={(c) => <ClientRow client={c} onBan={() => setBanning(c)} />}
          empty="No app has registered yet."
        />
      )}
      {banning && (
        <ConfirmDialog
          title={`Ban ${banning.name}?`}
          message="Everyone who authorised it loses its access now, and it can no longer ask."
          confirmLabel="Ban"
          danger
          busy={ban.isPending}
          onCancel={() => setBanning(null)}
          onConfirm={() => ban.mutate(banning.id, { onSuccess: () => setBanning(null) })}
        />
      )}
    </section>
  );
}

export default AppsScreen;
