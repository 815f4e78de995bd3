import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useCurrentUser } from '../../../api/me';
import type { DiffAnnotations } from '../../../components/diff-view';
import { ProblemMessage } from '../../../components/problem-message';
import { formatRelative } from '../../../lib/format';
import type { DiffOp } from '../../../lib/diff';
import {
  useAddReviewComment,
  useDeleteReviewComment,
  type ReviewComment,
} from '../api/change-requests';

type Side = ReviewComment['side'];

/** A thread: its first comment and the replies, oldest first. */
interface LineThread {
  root: ReviewComment;
  replies: ReviewComment[];
}

const keyOf = (side: Side, line: number) => `${side}:${line}`;

/** The lines a diff row stands for: a removed line is in the base, the others in the proposal. */
function keysOfRow(op: DiffOp): string[] {
  if (op.kind === 'del') return [keyOf('base', op.a)];
  if (op.kind === 'add') return [keyOf('proposed', op.b)];
  return [keyOf('proposed', op.b), keyOf('base', op.a)];
}

function threadsOf(comments: ReviewComment[]): LineThread[] {
  const threads = new Map<string, LineThread>();
  for (const c of comments) if (c.id === c.threadId) threads.set(c.id, { root: c, replies: [] });
  for (const c of comments) if (c.id !== c.threadId) threads.get(c.threadId)?.replies.push(c);
  return [...threads.values()];
}

/** A comment being written: Markdown in a text area. */
function LineCommentForm({
  label,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [body, setBody] = useState('');
  useEffect(() => area.current?.focus(), []);
  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (body.trim()) onSubmit(body);
      }}
    >
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        ref={area}
        id={id}
        className="input comment-form__text"
        rows={3}
        value={body}
        maxLength={10_000}
        placeholder="Markdown"
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && body.trim()) {
            event.preventDefault();
            onSubmit(body);
          }
          if (event.key === 'Escape') onCancel();
        }}
      />
      <ProblemMessage error={error} />
      <div className="comment-form__actions">
        <button type="submit" className="button button--primary" disabled={pending || !body.trim()}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CommentView({ requestId, comment }: { requestId: number; comment: ReviewComment }) {
  const user = useCurrentUser();
  const remove = useDeleteReviewComment(requestId);
  const name = comment.author?.displayName || comment.author?.username || 'Someone';
  const mayDelete = comment.author?.id === user.id || user.role === 'admin';
  return (
    <div className="comment">
      <div className="comment__head">
        <strong>{name}</strong>
        <time dateTime={comment.createdAt}>{formatRelative(comment.createdAt)}</time>
        {comment.editedAt && <span className="comment__edited">edited</span>}
        {mayDelete && (
          <button
            type="button"
            className="button button--quiet button--small comment__delete"
            disabled={remove.isPending}
            aria-label={comment.id === comment.threadId ? 'Delete thread' : 'Delete comment'}
            onClick={() => remove.mutate(comment.id)}
          >
            Delete
          </button>
        )}
      </div>
      <div className="prose comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      <ProblemMessage error={remove.error} />
    </div>
  );
}

function lineName(side: Side, line: number): string {
  return side === 'base' ? `removed line ${line}` : `line ${line}`;
}

/** One thread on a line: its comments, "Outdated" when its line is gone, and Reply. */
function ThreadView({ requestId, thread }: { requestId: number; thread: LineThread }) {
  const add = useAddReviewComment(requestId);
  const [replying, setReplying] = useState(false);
  const { root } = thread;
  return (
    <article
      className={`comment-thread line-thread${root.outdated ? ' comment-thread--outdated' : ''}`}
      aria-label={`Comments on ${lineName(root.side, root.line)}`}
    >
      {root.outdated && (
        <div className="comment-thread__anchor">
          <span className="comment-outdated">Outdated</span>
          <code className="line-thread__quote">{root.lineText || '(an empty line)'}</code>
        </div>
      )}
      <CommentView requestId={requestId} comment={root} />
      {thread.replies.map((reply) => (
        <CommentView key={reply.id} requestId={requestId} comment={reply} />
      ))}
      {replying ? (
        <LineCommentForm
          label="Reply"
          submitLabel="Send"
          pending={add.isPending}
          error={add.error}
          onCancel={() => setReplying(false)}
          onSubmit={(body) =>
            add.mutate({ body, parentId: root.id }, { onSuccess: () => setReplying(false) })
          }
        />
      ) : (
        <div className="comment-thread__actions">
          <button type="button" className="button button--small" onClick={() => setReplying(true)}>
            Reply
          </button>
        </div>
      )}
    </article>
  );
}

/**
 * Comments on the lines of one page change's Markdown diff: a "Comment on line N" button at the
 * end of every line, the threads of a line below it, and the outdated threads (whose line the
 * request no longer has) after the diff.
 */
export function useLineComments(requestId: number, slug: string, comments: ReviewComment[]) {
  const add = useAddReviewComment(requestId);
  const [composing, setComposing] = useState<string | null>(null);
  const threads = useMemo(
    () => threadsOf(comments.filter((c) => c.slug === slug)),
    [comments, slug],
  );
  const byLine = useMemo(() => {
    const map = new Map<string, LineThread[]>();
    for (const t of threads) {
      if (t.root.outdated) continue;
      const key = keyOf(t.root.side, t.root.line);
      map.set(key, [...(map.get(key) ?? []), t]);
    }
    return map;
  }, [threads]);
  const keep = useCallback(
    (op: DiffOp) => keysOfRow(op).some((k) => byLine.has(k) || k === composing),
    [byLine, composing],
  );

  const annotations: DiffAnnotations = {
    keep,
    action: (op) => {
      const [key] = keysOfRow(op);
      const side: Side = op.kind === 'del' ? 'base' : 'proposed';
      const line = op.kind === 'del' ? op.a : op.b;
      return (
        <button
          type="button"
          className="diff__comment-button"
          aria-label={`Comment on ${lineName(side, line)}`}
          title="Comment on this line"
          aria-expanded={composing === key}
          onClick={() => setComposing(composing === key ? null : key)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24">
            <path d="M4 5h16v11H9l-5 4V5Z" />
          </svg>
        </button>
      );
    },
    below: (op) => {
      const keys = keysOfRow(op);
      const here = keys.flatMap((k) => byLine.get(k) ?? []);
      const writing = composing !== null && keys[0] === composing;
      if (here.length === 0 && !writing) return null;
      const side: Side = op.kind === 'del' ? 'base' : 'proposed';
      const line = op.kind === 'del' ? op.a : op.b;
      return (
        <div className="line-comments">
          {here.map((t) => (
            <ThreadView key={t.root.id} requestId={requestId} thread={t} />
          ))}
          {writing && (
            <div className="comment-thread comment-thread--new">
              <LineCommentForm
                label="Comment"
                submitLabel="Add comment"
                pending={add.isPending}
                error={add.error}
                onCancel={() => setComposing(null)}
                onSubmit={(body) =>
                  add.mutate({ body, slug, side, line }, { onSuccess: () => setComposing(null) })
                }
              />
            </div>
          )}
        </div>
      );
    },
  };

  const outdated = threads.filter((t) => t.root.outdated);
  const outdatedList =
    outdated.length > 0 ? (
      <div className="line-comments line-comments--outdated">
        {outdated.map((t) => (
          <ThreadView key={t.root.id} requestId={requestId} thread={t} />
        ))}
      </div>
    ) : null;
  return { annotations, outdatedList };
}
