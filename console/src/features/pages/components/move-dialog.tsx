import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import type { Page } from '../../../api/types';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { paths } from '../../../lib/slugs';
import { useMovePages, useProposeMove } from '../api/page-moves';

/**
 * "Move page": a new slug for the page, optionally with every page under it, optionally with
 * the links in other pages rewritten. The old slugs become redirects (the API's 308s), so
 * links that are not rewritten keep working. Opens the page at its new slug when done.
 */
export function MoveDialog({ page, onClose }: { page: Page; onClose: () => void }) {
  const [to, setTo] = useState(page.slug);
  const [subtree, setSubtree] = useState(false);
  const [rewriteLinks, setRewriteLinks] = useState(false);
  const move = useMovePages();
  const navigate = useNavigate();
  const propose = useProposeMove();
  const problem = isProblem(move.error) ? move.error : null;
  // A protected path (docs/review.md): the move itself is refused; proposing it is the way on.
  const needsReview =
    move.error instanceof ApiProblem && move.error.code === 'change_request_required' && !subtree;
  const proposeMove = () =>
    propose.mutate(
      { slug: page.slug, title: page.title, to: to.trim() },
      {
        onSuccess: (request) => {
          onClose();
          navigate(paths.changeRequest(request.id));
        },
      },
    );
  const fieldProblems = problem?.errorsFor('to') ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    move.mutate(
      { from: page.slug, to, subtree, rewriteLinks },
      {
        onSuccess: (result) => {
          const moved = result.moved.find((m) => m.from === page.slug);
          onClose();
          navigate(paths.page(moved?.to ?? to), {
            state: { movedFrom: page.slug, movedPages: result.moved.length + result.hiddenMoved },
          });
        },
      },
    );
  };

  return (
    <Dialog
      title="Move page"
      onClose={onClose}
      description={
        <>
          “{page.title}” is at <code>{page.slug}</code>. Its old address keeps working: it leads to
          the new one.
        </>
      }
    >
      <form className="dialog__body" onSubmit={submit} noValidate>
        <Field label="New slug" errors={fieldProblems}>
          <input
            className="input"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            autoFocus
            required
            spellCheck={false}
            autoCapitalize="off"
          />
        </Field>
        <div className="field field--checkbox field--tight">
          <input
            id="move-subtree"
            type="checkbox"
            checked={subtree}
            onChange={(e) => setSubtree(e.target.checked)}
          />
          <label htmlFor="move-subtree">Include pages under it</label>
        </div>
        <div className="field field--checkbox field--tight">
          <input
            id="move-rewrite"
            type="checkbox"
            checked={rewriteLinks}
            onChange={(e) => setRewriteLinks(e.target.checked)}
          />
          <label htmlFor="move-rewrite">Update links in other pages</label>
        </div>
        {/* The API's detail says what is in the way (every taken slug) and that nothing moved. */}
        {move.error != null && fieldProblems.length === 0 && <ProblemMessage error={move.error} />}
        {propose.error != null && (
          <ProblemMessage error={propose.error} title="The move was not proposed." />
        )}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          {needsReview ? (
            <button
              type="button"
              className="button button--primary"
              onClick={proposeMove}
              disabled={propose.isPending || to.trim() === ''}
              aria-busy={propose.isPending}
            >
              Propose changes
            </button>
          ) : (
            <button
              type="submit"
              className="button button--primary"
              disabled={move.isPending || to.trim() === ''}
              aria-busy={move.isPending}
            >
              Move
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}

export default MoveDialog;
