import { ProblemMessage } from '../../../components/problem-message';
import { useDigest, useSetDigest } from '../api/digest';

/**
 * The daily email digest of unread notifications: on or off. No name here holds "Email": the
 * screen's Email field is found by that label.
 */
export function DigestSection() {
  const digest = useDigest();
  const set = useSetDigest();
  const settings = digest.data;
  return (
    <section className="account__section" aria-labelledby="digest-title">
      <h2 id="digest-title" className="section-title">
        Daily digest
      </h2>
      {settings && (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={settings.enabled}
              disabled={set.isPending}
              onChange={(e) => set.mutate(e.target.checked)}
            />{' '}
            Send me my unread notifications once a day
          </label>
          <p className="account__note">
            {!settings.mailConfigured
              ? 'This server sends no email at the moment, so no digest goes out.'
              : settings.email
                ? `It goes to ${settings.email}, once a day when something is unread.`
                : 'Add an email address to your profile above: without one no digest goes out.'}
          </p>
        </>
      )}
      <ProblemMessage error={digest.error ?? set.error} />
    </section>
  );
}
