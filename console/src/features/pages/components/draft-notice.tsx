import { useNavigate } from 'react-router';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { draftKeyOf, useDiscardDraft, useDraft } from '../../../api/drafts';

/** Tells an editor who left unsaved work on this page and offers to pick it up. */
export function DraftNotice({ slug, content }: { slug: string; content: string }) {
  const key = draftKeyOf(slug);
  const draft = useDraft(key);
  const discard = useDiscardDraft(key);
  const navigate = useNavigate();
  if (!draft.data || draft.data.content === content) return null;
  return (
    <div className="draft-notice" role="status">
      <p>You have an unsaved draft of this page from {formatRelative(draft.data.updatedAt)}.</p>
      <div className="draft-notice__actions">
        <button
          type="button"
          className="button button--primary button--small"
          onClick={() => navigate(`${paths.edit(slug)}?draft=resume`)}
        >
          Resume draft
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => discard.mutate()}
          disabled={discard.isPending}
        >
          Discard draft
        </button>
      </div>
    </div>
  );
}
