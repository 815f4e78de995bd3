import { useId, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { useDismiss } from '../../../components/use-dismiss';
import { paths } from '../../../lib/slugs';
import { useMarkAllRead, useMarkRead, useNotificationSummary } from '../api/notifications';
import { NotificationText } from './notification-text';

/** The newest notifications, Mark all read, and the way to the inbox. */
function NotificationsPanel({
  id,
  panel,
  unread,
  onClose,
}: {
  id: string;
  panel: RefObject<HTMLDivElement | null>;
  unread: number;
  onClose: () => void;
}) {
  const summary = useNotificationSummary();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  return (
    <div ref={panel} id={id} className="popover" role="region" aria-label="Latest notifications">
      <div className="popover__header">
        <h2 className="popover__title">Notifications</h2>
        <button
          type="button"
          className="button button--small"
          onClick={() => markAll.mutate()}
          disabled={unread === 0 || markAll.isPending}
        >
          Mark all read
        </button>
      </div>
      {summary.data?.items.length ? (
        <ul className="notification-list">
          {summary.data.items.map((item) => (
            <li key={item.id} className={`notification ${item.read ? '' : 'notification--unread'}`}>
              <NotificationText
                item={item}
                onOpen={() => {
                  if (!item.read) markRead.mutate(item.id);
                  onClose();
                }}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="popover__empty">Nothing new.</p>
      )}
      <Link to={paths.notifications()} className="popover__footer" onClick={onClose}>
        Open the inbox
      </Link>
    </div>
  );
}

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
        <NotificationsPanel
          id={panelId}
          panel={panel}
          unread={unread}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
