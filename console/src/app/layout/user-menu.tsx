import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDismiss } from '../../components/use-dismiss';
import { paths } from '../../lib/slugs';
import { canEdit, useCurrentUser, useLogout } from '../../api/me';
import DarkModeSwitch from './dark-mode-switch';

/** The signed-in person's menu: who they are, their account, drafts, access tokens, sign out. */
export function UserMenu() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useDismiss(open, () => setOpen(false), button, [panel]);

  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: (redirectTo) => {
        if (redirectTo) window.location.assign(redirectTo);
        else navigate(paths.login(), { replace: true });
      },
    });

  return (
    <div className="user-menu">
      <button
        ref={button}
        type="button"
        className="avatar-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Account: ${user.username}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {(user.displayName || user.username).slice(0, 1).toUpperCase()}
        </span>
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          className="popover popover--menu"
          role="region"
          aria-label="Account"
        >
          <p className="user-menu__who">
            <strong>{user.displayName || user.username}</strong>
            <span className="user-menu__role">{user.role}</span>
          </p>
          <Link to={paths.account()} className="user-menu__item" onClick={() => setOpen(false)}>
            Account
          </Link>
          {canEdit(user) && (
            <Link to={paths.drafts()} className="user-menu__item" onClick={() => setOpen(false)}>
              My drafts
            </Link>
          )}
          <Link to={paths.tokens()} className="user-menu__item" onClick={() => setOpen(false)}>
            Access tokens
          </Link>
          <Link
            to={paths.notifications()}
            className="user-menu__item"
            onClick={() => setOpen(false)}
          >
            Inbox
          </Link>
          <DarkModeSwitch />
          <button
            type="button"
            className="user-menu__item"
            onClick={signOut}
            disabled={logout.isPending}
          >
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
