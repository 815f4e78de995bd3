import { useCallback, useState, type RefObject } from 'react';
import type { Page } from '../../../api/types';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { formatRelative } from '../../../lib/format';
import { canEdit, useCurrentUser } from '../../../api/me';
import {
  useComments,
  useCreateComment,
  useDeleteComment,
  useEditComment,
  useResolveComment,
  type CommentItem,
  type CommentState,
} from '../api/comments';
import { threadsOf, type Thread } from '../model/threads';
import { CommentForm } from './comment-form';
import {
  scrollToHighlight,
  useHighlightClicks,
  useHighlights,
  useTextSelection,
  type NewAnchor,
} from './page-anchors';

const PANEL_ID = 'comments';

function threadElement(threadId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(threadId)}"]`);
}

/** The number of open threads of the page, leading to the panel. */
export function CommentCount({ slug }: { slug: string }) {
  const { data } = useComments(slug, 'open');
  const open = data?.threads.open ?? 0;
  return (
    <a className="comment-count" href={`#${PANEL_ID}`} aria-label={`${open} open comments`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="comment-count__icon">
        <path d="M4 5h16v11H9l-5 4V5Z" />
      </svg>
      {open}
    </a>
  );
}

function CommentView({
  slug,
  comment,
  mayDelete,
}: {
  slug: string;
  comment: CommentItem;
  mayDelete: boolean;
}) {
  const user = useCurrentUser();
  const edit = useEditComment(slug);
  const remove = useDeleteComment(slug);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const mine = comment.author?.id === user.id;
  const name = comment.author?.displayName || comment.author?.username || 'Someone';
  return (
    <div className="comment">
      <div className="comment__head">
        <strong>{name}</strong>
        <time dateTime={comment.createdAt}>{formatRelative(comment.createdAt)}</time>
        {comment.editedAt && <span className="comment__edited">edited</span>}
      </div>
      {editing ? (
        <CommentForm
          slug={slug}
          label="Edit comment"
          submitLabel="Save"
          initial={comment.body}
          pending={edit.isPending}
          error={edit.error}
          onCancel={() => setEditing(false)}
          onSubmit={(body) =>
            edit.mutate({ id: comment.id, body }, { onSuccess: () => setEditing(false) })
          }
        />
      ) : (
        <div className="prose comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      )}
      {!editing && (mine || mayDelete) && (
        <div className="comment__actions">
          {mine && (
            <button
              type="button"
              className="button button--quiet button--small"
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          {confirming ? (
            <>
              <button
                type="button"
                className="button button--danger button--small"
                disabled={remove.isPending}
                onClick={() => remove.mutate(comment.id)}
              >
                {comment.id === comment.threadId ? 'Delete thread' : 'Delete comment'}
              </button>
              <button
                type="button"
                className="button button--quiet button--small"
                onClick={() => setConfirming(false)}
              >
                Keep
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button button--quiet button--small"
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          )}
        </div>
      )}
      <ProblemMessage error={remove.error} />
    </div>
  );
}

function ThreadView({
  slug,
  thread,
  active,
  onQuote,
}: {
  slug: string;
  thread: Thread<CommentItem>;
  active: boolean;
  onQuote: (threadId: string) => void;
}) {
  const user = useCurrentUser();
  const create = useCreateComment(slug);
  const resolve = useResolveComment(slug);
  const [replying, setReplying] = useState(false);
  const { root } = thread;
  const admin = user.role === 'admin';
  const mayResolve = root.author?.id === user.id || canEdit(user);
  const name = root.author?.displayName || root.author?.username || 'someone';
  return (
    <article
      className={`comment-thread${active ? ' comment-thread--active' : ''}${root.outdated ? ' comment-thread--outdated' : ''}`}
      data-thread-id={root.id}
      aria-label={`Thread by ${name}`}
      tabIndex={-1}
    >
      {root.anchor && (
        <div className="comment-thread__anchor">
          {root.outdated && <span className="comment-outdated">Outdated</span>}
          <button
            type="button"
            className="comment-thread__quote"
            disabled={root.outdated}
            title={root.outdated ? 'This passage is no longer in the page' : 'Show in the page'}
            onClick={() => onQuote(root.id)}
          >
            “{root.anchor.quote}”
          </button>
        </div>
      )}
      <CommentView slug={slug} comment={root} mayDelete={admin || root.author?.id === user.id} />
      {thread.replies.map((reply) => (
        <CommentView
          key={reply.id}
          slug={slug}
          comment={reply}
          mayDelete={admin || reply.author?.id === user.id}
        />
      ))}
      {replying ? (
        <CommentForm
          slug={slug}
          label="Reply"
          submitLabel="Send"
          pending={create.isPending}
          error={create.error}
          onCancel={() => setReplying(false)}
          onSubmit={(body) =>
            create.mutate({ body, parentId: root.id }, { onSuccess: () => setReplying(false) })
          }
        />
      ) : (
        <div className="comment-thread__actions">
          {!root.resolved && (
            <button
              type="button"
              className="button button--small"
              onClick={() => setReplying(true)}
            >
              Reply
            </button>
          )}
          {mayResolve && (
            <button
              type="button"
              className="button button--quiet button--small"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ id: root.id, resolved: !root.resolved })}
            >
              {root.resolved ? 'Reopen' : 'Resolve'}
            </button>
          )}
        </div>
      )}
      <ProblemMessage error={resolve.error} />
    </article>
  );
}

/**
 * The comments beside the page (below it on a phone): open and resolved threads, a new thread
 * on the page or, after selecting text in it ("Comment"), on that passage; the passages of open
 * inline threads are marked in the page, and a mark leads to its thread and back.
 */
export function CommentsPanel({
  page,
  content,
}: {
  page: Page;
  content: RefObject<HTMLElement | null>;
}) {
  const [state, setState] = useState<CommentState>('open');
  const [composing, setComposing] = useState<{ anchor?: NewAnchor } | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const list = useComments(page.slug, state);
  const open = useComments(page.slug, 'open');
  const create = useCreateComment(page.slug);
  const [selection, clearSelection] = useTextSelection(content);

  const highlights = threadsOf(open.data?.items ?? [])
    .filter((t) => t.root.anchor && !t.root.outdated)
    .map((t) => ({ threadId: t.root.id, anchor: t.root.anchor! }));
  useHighlights(content, page.html, highlights, active);
  const showThread = useCallback((threadId: string) => {
    setState('open');
    setActive(threadId);
    window.setTimeout(() => {
      const element = threadElement(threadId);
      element?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      element?.focus({ preventScroll: true });
    }, 0);
  }, []);
  useHighlightClicks(content, showThread);

  const startThread = (anchor?: NewAnchor) => {
    create.reset();
    setComposing({ anchor });
    clearSelection();
    window.getSelection()?.removeAllRanges();
    window.setTimeout(
      () => document.getElementById(PANEL_ID)?.scrollIntoView({ block: 'nearest' }),
      0,
    );
  };

  const threads = threadsOf(list.data?.items ?? []);
  const counts = list.data?.threads ?? open.data?.threads;
  return (
    <section className="comments" id={PANEL_ID} aria-labelledby="comments-title">
      {selection && !composing && (
        <button
          type="button"
          className="button button--primary button--small comment-selection"
          style={{ top: selection.top, left: selection.left }}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => startThread(selection.anchor)}
        >
          Comment
        </button>
      )}
      <div className="comments__head">
        <h2 id="comments-title" className="comments__title">
          Comments
        </h2>
        {/* While text is selected, "Comment" (for that passage) stands in for it. */}
        {!composing && !selection && (
          <button type="button" className="button button--small" onClick={() => startThread()}>
            Add comment
          </button>
        )}
      </div>
      <div className="comments__tabs" role="tablist" aria-label="Threads">
        {(['open', 'resolved'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={state === tab}
            className="comments__tab"
            onClick={() => setState(tab)}
          >
            {tab === 'open' ? 'Open' : 'Resolved'} {counts ? `(${counts[tab]})` : ''}
          </button>
        ))}
      </div>
      {composing && (
        <div className="comment-thread comment-thread--new">
          {composing.anchor && (
            <p className="comment-thread__quote comment-thread__quote--new">
              “{composing.anchor.quote}”
            </p>
          )}
          <CommentForm
            slug={page.slug}
            label={composing.anchor ? 'Comment on the selected text' : 'Comment'}
            submitLabel="Post"
            pending={create.isPending}
            error={create.error}
            onCancel={() => setComposing(null)}
            onSubmit={(body) =>
              create.mutate(
                { body, anchor: composing.anchor },
                {
                  onSuccess: (made) => {
                    setComposing(null);
                    setState('open');
                    setActive(made.id);
                  },
                },
              )
            }
          />
        </div>
      )}
      <div
        role="tabpanel"
        className="comments__list"
        aria-label={state === 'open' ? 'Open' : 'Resolved'}
      >
        {list.isPending ? (
          <Spinner />
        ) : list.error ? (
          <ProblemMessage error={list.error} />
        ) : threads.length === 0 ? (
          <p className="comments__empty">
            {state === 'open'
              ? 'No open comments. Select text in the page to comment on it.'
              : 'No resolved comments.'}
          </p>
        ) : (
          threads.map((thread) => (
            <ThreadView
              key={thread.root.id}
              slug={page.slug}
              thread={thread}
              active={active === thread.root.id}
              onQuote={(threadId) => {
                setActive(threadId);
                scrollToHighlight(content.current, threadId);
              }}
            />
          ))
        )}
      </div>
    </section>
  );
}
