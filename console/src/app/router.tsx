import { createBrowserRouter, type RouteObject } from 'react-router';
import { adminRoutes } from '../features/admin/routes';
import { PageScreen } from '../features/pages/components/page-screen';
import { AppShell } from './layout/app-shell';
import { NotFoundScreen, RouteError } from './route-error';

/** A screen loaded on first use: a chunk of its own, out of the sign-in-and-read bundle. */
const lazyScreen =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/**
 * Console URLs. The server answers index.html for exactly these prefixes
 * (src/console/console-routes.ts); `/wiki/<slug>` is the canonical address of a page.
 */
const routes: RouteObject[] = [
  // A chunk of its own: a person signs in once and reads on every load after.
  {
    path: '/login',
    lazy: async () => ({
      Component: (await import('../features/auth/components/login-screen')).LoginScreen,
    }),
    errorElement: <RouteError />,
  },
  {
    path: '/',
    Component: AppShell,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('../features/pages/components/home-screen')).HomeScreen,
            }),
          },
          { path: 'wiki/*', Component: PageScreen },
          {
            path: 'search',
            lazy: lazyScreen(() => import('../features/search/components/search-screen')),
          },
          {
            path: 'tags',
            lazy: async () => ({
              Component: (await import('../features/pages/components/tag-screens')).TagsScreen,
            }),
          },
          {
            path: 'tags/:tag',
            lazy: async () => ({
              Component: (await import('../features/pages/components/tag-screens')).TagScreen,
            }),
          },
          {
            path: 'new',
            lazy: lazyScreen(() => import('../features/editor/components/editor-screen')),
          },
          {
            path: 'edit/*',
            lazy: lazyScreen(() => import('../features/editor/components/editor-screen')),
          },
          {
            path: 'history/*',
            lazy: lazyScreen(() => import('../features/revisions/components/history-screen')),
          },
          {
            path: 'notifications',
            lazy: lazyScreen(() => import('../features/notifications/components/inbox-screen')),
          },
          {
            path: 'tokens',
            lazy: lazyScreen(() => import('../features/tokens/components/tokens-screen')),
          },
          ...adminRoutes,
          { path: '*', Component: NotFoundScreen },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
