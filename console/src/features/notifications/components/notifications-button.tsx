import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useDismiss } from '../../../components/use-dismiss';
import { useNotificationSummary } from '../api/notifications';

const NotificationsPanel = lazy(() => import('./notifications-panel'));

/**
 * The header's "Notifications" button: an unread badge, and a panel with the newest items.
 * Escape or a click outside closes the panel and focus goes back to the button.
 */
export function NotificationsButton() {
  const summary = useNotificationSummary();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const countId = useId();
  const unread = summary.data?.unreadCount ?? 0;

  useDismiss(open, () => setOpen(false), button, [panel]);

  return (
    <div className="notifications">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label="Notifications"
        aria-describedby={countId}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="icon">
          <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Zm4 4h4" />
        </svg>
      </button>
      {/* Beside the button, not in it: the button's name stays "Notifications". */}
      {unread > 0 && (
        <span className="badge" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
      <span id={countId} className="visually-hidden">
        {unread === 0 ? 'No unread notifications' : `${unread} unread`}
      </span>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel
            id={panelId}
            panel={panel}
            unread={unread}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
