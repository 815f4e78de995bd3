import type { RouteObject } from 'react-router';

/**
 * The administrator's workspace (console part 2) mounts here, under /admin: its screens are
 * lazy routes like the editor's, so their code loads only when an administrator opens them.
 * Part 1 reserves the address (the server answers index.html for /admin/*).
 */
export const adminRoutes: RouteObject[] = [
  {
    path: 'admin/*',
    lazy: async () => ({ Component: (await import('./admin-placeholder')).default }),
  },
];
