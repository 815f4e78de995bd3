import { useState } from 'react';
import { useParams } from 'react-router';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useDecideOAuthRequest, useOAuthRequest, type OAuthRequest } from '../api/consent';
import '../oauth.css';

const ROLE_SENTENCE: Record<OAuthRequest['role'], string> = {
  reader: 'It will read what you can read. It cannot change anything.',
  editor: 'It will read and change pages as you, where you may.',
  admin: 'It will act as you, with everything an administrator can do.',
};

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

function ConsentForm({ uid, request }: { uid: string; request: OAuthRequest }) {
  const decide = useDecideOAuthRequest(uid);
  const [limit, setLimit] = useState('');
  const choose = (decision: 'approve' | 'deny') =>
    decide.mutate(
      { decision, paths: limit.split(/[\s,]+/).filter(Boolean) },
      { onSuccess: ({ redirectTo }) => window.location.assign(redirectTo) },
    );
  const granted = request.scopes.filter((s) => s.granted);
  return (
    <>
      <h1 id="consent-title" className="screen__title">
        Allow {request.client.name} to use kb as you?
      </h1>
      <p className="screen__lead">
        {request.client.uri ? (
          <a href={request.client.uri} rel="noreferrer noopener" target="_blank">
            {request.client.name}
          </a>
        ) : (
          <strong>{request.client.name}</strong>
        )}{' '}
        asks for access to this wiki. After you answer, you go back to{' '}
        <strong>{hostOf(request.redirectUri)}</strong>.
      </p>
      <h2 className="section-title">It asks to</h2>
      <ul className="consent__scopes" aria-label="Requested access">
        {request.scopes.map((scope) => (
          <li key={scope.name} className={scope.granted ? '' : 'consent__scope--refused'}>
            <span className="consent__scope-name">{scope.name}</span> {scope.description}
            {!scope.granted && (
              <span className="consent__scope-note"> Not given: more than your role allows.</span>
            )}
          </li>
        ))}
      </ul>
      <p className="account__note">
        {granted.length ? ROLE_SENTENCE[request.role] : 'Nothing it asks for is within your role.'}{' '}
        You can revoke it at any time on your Account screen.
      </p>
      <Field
        label="Limit to pages (optional)"
        hint="Slug patterns, separated by spaces: docs/team-a/** for a folder and all under it. Empty: every page you can see."
      >
        <input
          className="input"
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          spellCheck={false}
          autoCapitalize="off"
          placeholder="docs/team-a/**"
        />
      </Field>
      <ProblemMessage error={decide.error} title="Your answer was not recorded." />
      <div className="consent__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={decide.isPending || granted.length === 0}
          onClick={() => choose('approve')}
        >
          Allow
        </button>
        <button
          type="button"
          className="button"
          disabled={decide.isPending}
          onClick={() => choose('deny')}
        >
          Deny
        </button>
      </div>
    </>
  );
}

/** Where an app's authorization request asks the signed-in person to allow or deny it. */
export function ConsentScreen() {
  useDocumentTitle('Allow an app');
  const { uid = '' } = useParams();
  const request = useOAuthRequest(uid);
  return (
    <section className="screen screen--narrow consent" aria-labelledby="consent-title">
      {request.isPending ? (
        <Spinner />
      ) : request.data ? (
        <ConsentForm uid={uid} request={request.data} />
      ) : (
        <>
          <h1 id="consent-title" className="screen__title">
            Allow an app
          </h1>
          <ProblemMessage error={request.error} title="This request cannot be answered." />
        </>
      )}
    </section>
  );
}

export default ConsentScreen;
