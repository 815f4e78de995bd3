import { lazy, Suspense, useId, useRef, useState } from 'react';

const ExportMenuItems = lazy(() => import('./export-menu-items'));

/**
 * The page's "Export" menu button (aria-haspopup="menu"): Markdown, a ZIP with its images, the
 * PDF (saved variable values) and Print… (the print dialog, where values can be changed for one
 * output). ArrowDown or a click opens it; Escape closes it and focus comes back here.
 */
export function ExportMenu({
  slug,
  onPrint,
  onError,
}: {
  slug: string;
  onPrint: () => void;
  onError: (error: unknown) => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  return (
    <div className="menu-button">
      <button
        ref={button}
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-busy={busy}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' || open) return;
          e.preventDefault();
          setOpen(true);
        }}
      >
        Export
        <span aria-hidden="true" className="chevron chevron--down" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <ExportMenuItems
            id={id}
            slug={slug}
            button={button}
            onClose={() => setOpen(false)}
            onBusy={setBusy}
            onPrint={onPrint}
            onError={onError}
          />
        </Suspense>
      )}
    </div>
  );
}
