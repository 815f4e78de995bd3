import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { isProblem } from '../../api/problem';
import { ProblemMessage } from '../../components/problem-message';
import { useDismiss } from '../../components/use-dismiss';
import { Spinner } from '../../components/spinner';
import { paths, slugFromSplat } from '../../lib/slugs';
import { canEdit, useMe } from '../../api/me';
import { NotificationsButton } from '../../features/notifications/components/notifications-button';
import { PageTree } from '../../features/pages/components/page-tree';
import { RecentRegion, TagsRegion } from '../../features/pages/components/sidebar-lists';
import { SearchBox } from '../../features/search/components/search-box';
import { QuickSwitcher } from '../../features/search/components/quick-switcher';
import { useLiveEvents } from '../../api/live-events';
import { UserMenu } from './user-menu';

/** The slug the current screen is about (page, editor, history), for the tree's open branches. */
function currentSlug(pathname: string): string {
  const match = /^\/(?:wiki|edit|history)\/(.+)$/.exec(pathname);
  return match ? slugFromSplat(decodeURIComponent(match[1])) : '';
}

/**
 * The signed-in layout: header (menu, search, new page, notifications, account), sidebar
 * (page tree, recent, tags; a drawer on phones) and the screen. Signed-out people go to
 * sign-in and come back here afterwards.
 */
export function AppShell() {
  const me = useMe();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  // A new screen closes the drawer.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useDismiss(menuOpen, () => setMenuOpen(false), menuButton);
  // One live event stream per console, once someone is signed in.
  useLiveEvents(me.data !== undefined);

  if (me.isPending) return <Spinner label="Opening kb…" />;
  if (isProblem(me.error, 401)) {
    return <Navigate to={paths.login(location.pathname + location.search)} replace />;
  }
  if (me.error || !me.data) return <ProblemMessage error={me.error} />;

  return (
    <div className={`shell ${menuOpen ? 'shell--menu-open' : ''}`}>
      <a className="skip-link" href="#main" onClick={() => main.current?.focus()}>
        Skip to content
      </a>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="icon-button topbar__menu"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((o) => !o)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="icon">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </button>
        <Link to={paths.home()} className="brand" aria-label="kb home">
          <span className="brand__mark" aria-hidden="true">
            kb
          </span>
        </Link>
        <SearchBox />
        <div className="topbar__actions">
          {canEdit(me.data) && (
            <Link to={paths.newPage()} className="button button--primary topbar__new">
              New page
            </Link>
          )}
          {me.data.role === 'admin' && (
            <Link to={paths.admin()} className="button button--quiet topbar__admin">
              Admin
            </Link>
          )}
          <NotificationsButton />
          <UserMenu />
        </div>
      </header>
      <div className="shell__body">
        <div className="sidebar" id="sidebar">
          <PageTree current={currentSlug(location.pathname)} />
          <RecentRegion />
          <TagsRegion />
        </div>
        {menuOpen && (
          <div className="scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />
        )}
        <main id="main" ref={main} tabIndex={-1} className="main">
          <Outlet />
        </main>
      </div>
      <QuickSwitcher />
    </div>
  );
}
