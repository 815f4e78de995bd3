/**
 * Light or dark: the system's choice (prefers-color-scheme), unless the person flipped the
 * "Dark mode" switch (layout/dark-mode-switch.tsx); their choice is kept in this browser only
 * while it differs from the system's, so switching back to what the system says follows the
 * system again. `data-theme` on <html> selects the colours (styles/app.css).
 */
export const THEME_KEY = 'kb-theme';
export const systemTheme = () => window.matchMedia('(prefers-color-scheme: dark)');
export const themeListeners = new Set<() => void>();

/** The theme to show: the stored choice, else the system's. */
export function applyTheme(choice = localChoice()): void {
  const dark = (choice ?? (systemTheme().matches ? 'dark' : 'light')) === 'dark';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  themeListeners.forEach((l) => l());
}

function localChoice(): string | null {
  try {
    return localStorage.getItem(THEME_KEY);
  } catch {
    return null;
  }
}

/** Runs once at start, before the first render, and follows the system's changes. */
export function startTheme(): void {
  applyTheme();
  systemTheme().addEventListener('change', () => applyTheme());
}

export const isDark = () => document.documentElement.dataset.theme === 'dark';

export function subscribeTheme(listener: () => void): () => void {
  themeListeners.add(listener);
  return () => themeListeners.delete(listener);
}
