import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { DiffView } from '../../../components/diff-view';
import {
  useChangeRequest,
  useChangeRequestAction,
  useChangeRequestLinks,
  useRendered,
  useReviewComments,
  type ChangeRequest,
  type ReviewComment,
} from '../api/change-requests';
import { useLineComments } from './line-comments';

type Change = ChangeRequest['changes'][number];

/** One page's change: what it does, the rendered before and after, and the Markdown diff. */
/** `/edit/<slug>?changeRequest=<id>`: the proposal of one page, edited and proposed again. */
const editProposal = (slug: string, requestId: number) =>
  `${paths.edit(slug)}?changeRequest=${requestId}`;

function ChangeItem({
  change,
  requestId,
  comments,
  mayUpdate,
}: {
  change: Change;
  requestId: number;
  comments: ReviewComment[];
  /** Its author (or an administrator) may change the proposal: the request is open. */
  mayUpdate: boolean;
}) {
  const [view, setView] = useState<'rendered' | 'markdown'>('markdown');
  // The rendered view goes through the preview, which renders for editors only.
  const mayRender = canEdit(useCurrentUser());
  const lineComments = useLineComments(requestId, change.slug, comments);
  const before = change.action === 'create' ? '' : (change.baseContent ?? '');
  const after =
    change.action === 'bin' ? '' : change.action === 'move' ? before : (change.content ?? before);
  const renderedBefore = useRendered(view === 'rendered' ? before : null, change.slug);
  const renderedAfter = useRendered(view === 'rendered' ? after : null, change.slug);
  const heading =
    change.action === 'move'
      ? `Move ${change.slug} → ${change.to}`
      : change.action === 'bin'
        ? `Move ${change.slug} to the bin`
        : change.action === 'create'
          ? `New page ${change.slug}`
          : `Edit ${change.slug}`;
  return (
    <article className="change" aria-label={heading}>
      <div className="change__head">
        <h3 className="change__title">{heading}</h3>
        {mayUpdate && change.action === 'update' && (
          <Link
            to={editProposal(change.slug, requestId)}
            className="button button--small"
            aria-label={`Edit the proposal for ${change.slug}`}
          >
            Edit proposal
          </Link>
        )}
      </div>
      {change.title && change.title !== change.baseTitle && (
        <p className="change__meta">
          Title: {change.baseTitle ? `${change.baseTitle} → ` : ''}
          {change.title}
        </p>
      )}
      {change.baseRevision !== null && (
        <p className="change__meta">
          From revision {change.baseRevision}
          {change.currentRevision !== null && change.currentRevision !== change.baseRevision
            ? ` (the page is at revision ${change.currentRevision} now)`
            : ''}
        </p>
      )}
      {change.action !== 'move' && (
        <>
          {mayRender && (
            <div className="segmented" role="group" aria-label={`View of ${change.slug}`}>
              <button
                type="button"
                aria-pressed={view === 'markdown'}
                onClick={() => setView('markdown')}
              >
                Markdown diff
              </button>
              <button
                type="button"
                aria-pressed={view === 'rendered'}
                onClick={() => setView('rendered')}
              >
                Rendered
              </button>
            </div>
          )}
          {view === 'markdown' ? (
            <DiffView
              before={before}
              after={after}
              beforeLabel={
                change.action === 'create' ? 'Nothing' : `Revision ${change.baseRevision}`
              }
              afterLabel="Proposed"
              mode="inline"
              annotations={lineComments.annotations}
            />
          ) : (
            <div className="change__rendered">
              <section aria-label="Before">
                <h4 className="change__side">Before</h4>
                <div
                  className="page-content"
                  dangerouslySetInnerHTML={{ __html: renderedBefore.data?.html ?? '' }}
                />
              </section>
              <section aria-label="Proposed">
                <h4 className="change__side">Proposed</h4>
                <div
                  className="page-content"
                  dangerouslySetInnerHTML={{ __html: renderedAfter.data?.html ?? '' }}
                />
              </section>
            </div>
          )}
          {lineComments.outdatedList}
        </>
      )}
    </article>
  );
}

/** The link report of the proposed state: links that would lead nowhere after the merge. */
function LinksRegion({ request }: { request: ChangeRequest }) {
  const links = useChangeRequestLinks(request.id, request.version);
  return (
    <section className="change-request__links" aria-labelledby="cr-links">
      <h2 id="cr-links" className="section-title">
        Links
      </h2>
      <ProblemMessage error={links.error} />
      {links.isPending ? (
        <Spinner label="Checking links…" />
      ) : links.data && links.data.items.length > 0 ? (
        <ul className="change-request__broken">
          {links.data.items.map((l) => (
            <li key={`${l.page}:${l.line}:${l.target}`}>
              {l.page}:{l.line}: broken link {l.target}
            </li>
          ))}
        </ul>
      ) : (
        <p>No broken links: every link of the proposed pages leads to a page.</p>
      )}
      <p>
        <a href={`/api/change-requests/${request.id}/links`}>The report as JSON</a> (JUnit XML with{' '}
        <code>Accept: application/xml</code>)
      </p>
    </section>
  );
}

function Conflicts({ request, mayUpdate }: { request: ChangeRequest; mayUpdate: boolean }) {
  if (request.conflicts.length === 0) return null;
  return (
    <div className="notice notice--warning" role="alert">
      <p>
        Merging is blocked: pages changed since this request was made, where it changes them too.
        Update the request from the current pages.
      </p>
      <ul>
        {request.conflicts.map((c) => (
          <li key={c.slug}>
            <Link to={paths.page(c.slug)}>{c.slug}</Link>: {c.reason.replace(/_/g, ' ')}
            {mayUpdate && c.reason === 'overlapping_edits' && (
              <>
                {' · '}
                <Link
                  to={editProposal(c.slug, request.id)}
                  aria-label={`Resolve the conflicts of ${c.slug} in the editor`}
                >
                  Resolve in the editor
                </Link>
              </>
            )}
            {c.hunks.map((h) => (
              <div key={h.line} className="conflict-hunk">
                <p>Line {h.line}:</p>
                <pre>{`proposed: ${h.proposed}\ncurrent:  ${h.current}\nbase:     ${h.base}`}</pre>
              </div>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Actions({ request }: { request: ChangeRequest }) {
  const user = useCurrentUser();
  const action = useChangeRequestAction(request.id);
  if (request.state !== 'open') return null;
  const own = request.author === user.username;
  const editor = canEdit(user);
  const busy = action.isPending;
  return (
    <div className="change-request__actions">
      {editor && !own && (
        <>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => action.mutate('approve')}
          >
            Approve
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => action.mutate('request-changes')}
          >
            Request changes
          </button>
        </>
      )}
      {editor && (
        <button
          type="button"
          className="button button--primary"
          disabled={busy || !request.mergeable}
          onClick={() => action.mutate('merge')}
        >
          Merge
        </button>
      )}
      {(own || editor) && (
        <button
          type="button"
          className="button button--quiet"
          disabled={busy}
          onClick={() => action.mutate('close')}
        >
          Close
        </button>
      )}
      <ProblemMessage error={action.error} />
    </div>
  );
}

/** One change request: what it changes, its links, its reviews, and what may be done now. */
export function ChangeRequestScreen() {
  const id = Number(useParams().id);
  const query = useChangeRequest(id);
  const request = query.data;
  const comments = useReviewComments(id);
  const user = useCurrentUser();
  useDocumentTitle(request ? `#${request.id} ${request.title}` : 'Change request');
  if (query.error) return <ProblemMessage error={query.error} />;
  if (!request) return <Spinner />;
  const missing = request.approvalsMissing;
  const mayUpdate =
    request.state === 'open' && (request.author === user.username || user.role === 'admin');
  return (
    <section className="screen change-request" aria-labelledby="cr-title">
      <p>
        <Link to={paths.changeRequests()}>Change requests</Link>
      </p>
      <h1 id="cr-title" className="screen__title">
        #{request.id} {request.title}
      </h1>
      <p className="screen__lead">
        <span className={`badge-pill cr-state cr-state--${request.state}`}>{request.state}</span> by{' '}
        {request.author ?? 'someone'}, updated {formatRelative(request.updatedAt)}
        {request.state === 'open' &&
          (missing > 0
            ? ` · ${missing} more approval${missing === 1 ? '' : 's'} needed`
            : ' · approvals complete')}
      </p>
      {request.description && <p className="change-request__description">{request.description}</p>}
      <Conflicts request={request} mayUpdate={mayUpdate} />
      <Actions request={request} />
      <p className="change-request__reviews" role="status">
        {request.reviews.length === 0
          ? 'No reviews yet.'
          : request.reviews
              .map(
                (r) =>
                  `${r.username ?? 'someone'} ${r.verdict === 'approved' ? 'approved' : 'requested changes'}${r.current ? '' : ' (an earlier version)'}`,
              )
              .join(' · ')}
      </p>
      <section className="change-request__changes" aria-labelledby="cr-changes">
        <h2 id="cr-changes" className="section-title">
          Changes
        </h2>
        <ProblemMessage error={comments.error} />
        {request.changes.map((change) => (
          <ChangeItem
            key={`${change.action}:${change.slug}`}
            change={change}
            requestId={request.id}
            comments={comments.data ?? []}
            mayUpdate={mayUpdate}
          />
        ))}
      </section>
      <LinksRegion request={request} />
    </section>
  );
}

export default ChangeRequestScreen;
