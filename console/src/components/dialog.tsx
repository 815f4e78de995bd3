import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class for sizing (`dialog--wide`). */
  className?: string;
  description?: ReactNode;
}

/**
 * A modal <dialog>: the browser keeps focus inside and Escape closes it; focus returns to
 * the element that was focused when it opened. Mounted = open: closing unmounts it, so its
 * state (print overrides, form input) is gone.
 */
export function Dialog({ title, onClose, children, className, description }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
    >
      <div className="dialog__header">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
      </div>
      {description && (
        <p id={descriptionId} className="dialog__description">
          {description}
        </p>
      )}
      {children}
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
}

export function ConfirmDialog(props: ConfirmProps) {
  return (
    <Dialog title={props.title} onClose={props.onCancel} description={props.message}>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${props.danger ? 'button--danger' : 'button--primary'}`}
          onClick={props.onConfirm}
          disabled={props.busy}
          autoFocus
        >
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
