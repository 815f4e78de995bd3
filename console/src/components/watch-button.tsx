import { ProblemMessage } from './problem-message';
import { useTreeLevel } from '../api/pages';
import { useToggleWatch, useWatches, type Watch } from '../api/watches';

function WatchToggle({ watch, label, hint }: { watch: Watch; label: string; hint: string }) {
  const watches = useWatches();
  const toggle = useToggleWatch();
  const watched =
    watches.data?.items.some((w) => w.slug === watch.slug && w.subtree === watch.subtree) ?? false;
  const pending = toggle.isPending && toggle.variables.watch.subtree === watch.subtree;
  const pressed = pending ? toggle.variables.on : watched;
  return (
    <>
      <button
        type="button"
        className="button"
        aria-pressed={pressed}
        disabled={watches.isPending || toggle.isPending}
        title={hint}
        onClick={() => toggle.mutate({ watch, on: !watched })}
      >
        {label}
      </button>
      {toggle.error !== null && <ProblemMessage error={toggle.error} title="Not changed." />}
    </>
  );
}

/**
 * "Watch": a toggle button (aria-pressed) on a page; while pressed, others' edits, moves and
 * binning of the page reach the inbox. A page with pages under it also offers "Watch folder"
 * (the page and every page under it, including ones created later).
 */
export function WatchButton({ slug }: { slug: string }) {
  const below = useTreeLevel(slug);
  return (
    <>
      <WatchToggle
        watch={{ slug, subtree: false }}
        label="Watch"
        hint="Changes to this page reach your inbox"
      />
      {below.items.length > 0 && (
        <WatchToggle
          watch={{ slug, subtree: true }}
          label="Watch folder"
          hint="Changes to this page and every page under it reach your inbox"
        />
      )}
    </>
  );
}
