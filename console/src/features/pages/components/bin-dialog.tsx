import { useNavigate } from 'react-router';
import type { Page } from '../../../api/types';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { paths } from '../../../lib/slugs';
import { useMoveToBin } from '../api/page-moves';

function linkingPages(count: number): string {
  if (count === 0) return 'No page links to it.';
  if (count === 1) return '1 page links to it; that link will lead nowhere.';
  return `${count} pages link to it; those links will lead nowhere.`;
}

/** "Move to bin" (administrators): names the page and how many pages link to it. */
export function BinDialog({ page, onClose }: { page: Page; onClose: () => void }) {
  const bin = useMoveToBin();
  const navigate = useNavigate();
  const confirm = () =>
    bin.mutate(page.slug, {
      onSuccess: () => {
        onClose();
        navigate(paths.home());
      },
    });
  return (
    <Dialog
      title="Move to bin"
      onClose={onClose}
      description={
        <>
          “{page.title}” (<code>{page.slug}</code>) goes to the bin, where an administrator can
          restore it. {linkingPages(page.backlinks.length)}
        </>
      }
    >
      {bin.error != null && (
        <div className="dialog__body">
          <ProblemMessage error={bin.error} title="The page was not moved to the bin." />
        </div>
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={confirm}
          disabled={bin.isPending}
          aria-busy={bin.isPending}
          autoFocus
        >
          Move to bin
        </button>
      </div>
    </Dialog>
  );
}

export default BinDialog;
