import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useInbox, useMarkAllRead, useMarkRead } from '../api/notifications';
import { NotificationText } from './notification-text';
import { useDocumentTitle } from '../../../components/use-document-title';

export function InboxScreen() {
  const inbox = useInbox();
  useDocumentTitle('Notifications');
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  return (
    <div className="screen screen--narrow">
      <header className="screen__header">
        <h1 className="screen__title">Notifications</h1>
        <button
          type="button"
          className="button"
          onClick={() => markAll.mutate()}
          disabled={inbox.unreadCount === 0 || markAll.isPending}
        >
          Mark all read
        </button>
      </header>
      <p className="screen__lead">
        {inbox.unreadCount === 0 ? 'All read.' : `${inbox.unreadCount} unread`}
      </p>
      {inbox.isPending ? (
        <Spinner />
      ) : inbox.isError ? (
        <ProblemMessage error={inbox.error} />
      ) : inbox.items.length === 0 ? (
        <EmptyState>Your inbox is empty.</EmptyState>
      ) : (
        <ul className="notification-list notification-list--page">
          {inbox.items.map((item) => (
            <li key={item.id} className={`notification ${item.read ? '' : 'notification--unread'}`}>
              <NotificationText item={item} onOpen={() => !item.read && markRead.mutate(item.id)} />
              {!item.read && (
                <button
                  type="button"
                  className="button button--small button--quiet"
                  onClick={() => markRead.mutate(item.id)}
                >
                  Mark read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={inbox} />
    </div>
  );
}

export default InboxScreen;
