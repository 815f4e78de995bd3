import { useSyncExternalStore } from 'react';
import { applyTheme, isDark, subscribeTheme, systemTheme, THEME_KEY } from '../../lib/theme';

/** Keeps the person's choice while it differs from the system's (then the system decides). */
function setDark(dark: boolean): void {
  const choice = dark ? 'dark' : 'light';
  try {
    if (dark === systemTheme().matches) localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
  applyTheme(choice);
}

/** The "Dark mode" switch (role switch) of the account menu; a chunk of its own. */
export default function DarkModeSwitch() {
  const dark = useSyncExternalStore(subscribeTheme, isDark);
  return (
    <button
      type="button"
      role="switch"
      aria-checked={dark}
      className="user-menu__item switch"
      onClick={() => setDark(!dark)}
    >
      Dark mode
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
    </button>
  );
}
