import type { RefObject } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/slugs';
import { useMarkAllRead, useMarkRead, useNotificationSummary } from '../api/notifications';
import { NotificationText } from './notification-text';

/**
 * The newest notifications, Mark all read, and the way to the inbox (a chunk of its own: it loads
 * when the panel first opens).
 */
export default function NotificationsPanel({
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
