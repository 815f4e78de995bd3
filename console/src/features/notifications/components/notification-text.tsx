import { Link } from 'react-router';
import type { NotificationItem } from '../../../api/types';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';

function who(item: NotificationItem): string {
  return item.actor?.displayName || item.actor?.username || 'Someone';
}

/** What happened, in a sentence; the page's title links to the page while it is live. */
export function NotificationText({
  item,
  onOpen,
}: {
  item: NotificationItem;
  onOpen?: () => void;
}) {
  const page = item.page;
  const link =
    page && item.kind !== 'page.binned' ? (
      <Link to={paths.page(page.slug)} onClick={onOpen} className="notification__page">
        {page.title}
      </Link>
    ) : (
      <strong>{page?.title}</strong>
    );
  let text;
  switch (item.kind) {
    case 'page.updated': {
      const updates = Number(item.data.updates ?? 1);
      text = (
        <>
          {who(item)} edited {link}
          {updates > 1 ? ` (${updates} changes)` : ''}
          {item.data.summary ? `: “${item.data.summary}”` : ''}
        </>
      );
      break;
    }
    case 'page.binned':
      text = (
        <>
          {who(item)} moved {link} to the bin
        </>
      );
      break;
    case 'page.moved':
      text = (
        <>
          {who(item)} moved {link}
          {item.data.from ? ` from ${item.data.from}` : ''}
        </>
      );
      break;
    case 'comment.mentioned':
      text = (
        <>
          {who(item)} mentioned you in a comment on {link}
        </>
      );
      break;
    case 'comment.replied':
      text = (
        <>
          {who(item)} replied to a comment on {link}
        </>
      );
      break;
    case 'page.review_due':
      text = <>{link} is due for review</>;
      break;
    case 'import.finished': {
      const counts = (item.data.counts ?? {}) as Record<string, number>;
      text = (
        <>
          Your import finished: {counts.created ?? 0} created, {counts.replaced ?? 0} replaced,{' '}
          {counts.unchanged ?? 0} unchanged
        </>
      );
      break;
    }
    case 'change_request': {
      const data = item.data as { requestId?: number; title?: string; action?: string };
      const words: Record<string, string> = {
        created: 'asks for your review',
        updated: 'was updated',
        approved: 'was approved',
        changes_requested: 'needs changes',
        merged: 'was merged',
        closed: 'was closed',
        commented: 'has a new review comment',
      };
      text = (
        <>
          Change request{' '}
          <Link to={paths.changeRequest(String(data.requestId))}>
            #{data.requestId} {data.title}
          </Link>{' '}
          {words[data.action ?? ''] ?? data.action}
        </>
      );
      break;
    }
    default:
      text = <>{page ? link : item.kind}</>;
  }
  return (
    <span className="notification__text">
      <span>{text}</span>
      <time className="notification__time" dateTime={item.createdAt}>
        {formatRelative(item.createdAt)}
      </time>
    </span>
  );
}
