import { ProblemMessage } from '../../../components/problem-message';
import { useToggleWatch, useWatches } from '../api/watches';

/**
 * "Watch": a toggle button (aria-pressed) on a page; while pressed, others' edits, moves and
 * binning of the page reach the inbox.
 */
export function WatchButton({ slug }: { slug: string }) {
  const watches = useWatches();
  const toggle = useToggleWatch();
  const watched = watches.data?.items.some((w) => w.slug === slug && !w.subtree) ?? false;
  const pressed = toggle.isPending ? toggle.variables.on : watched;
  return (
    <>
      <button
        type="button"
        className="button"
        aria-pressed={pressed}
        disabled={watches.isPending || toggle.isPending}
        title={pressed ? 'You are told about changes to this page' : undefined}
        onClick={() => toggle.mutate({ watch: { slug, subtree: false }, on: !watched })}
      >
        Watch
      </button>
      {toggle.error !== null && <ProblemMessage error={toggle.error} title="Not changed." />}
    </>
  );
}
