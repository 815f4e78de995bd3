import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { adminRoutes } from '../features/admin/routes';
import { PageScreen } from '../features/pages/components/page-screen';
import { AppShell } from './layout/app-shell';
import { NotFoundScreen } from '../features/pages/components/not-found-screen';
import { RouteError } from './route-error';

/** A screen loaded on first use: a chunk of its own, out of the sign-in-and-read bundle. */
const lazyScreen =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/**
 * Console URLs. The server answers index.html for these prefixes (src/console/console-routes.ts)
 * and for any address a browser navigates to outside the API, which the last route answers
 * (a page address without `/wiki` opens the page; anything else is "Not found");
 * `/wiki/<slug>` is the canonical address of a page.
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
          {
            path: 'drafts',
            lazy: lazyScreen(() => import('../features/drafts/components/drafts-screen')),
          },
          {
            path: 'change-requests',
            lazy: lazyScreen(
              () => import('../features/change-requests/components/change-requests-screen'),
            ),
          },
          {
            path: 'change-requests/:id',
            lazy: lazyScreen(
              () => import('../features/change-requests/components/change-request-screen'),
            ),
          },
          {
            path: 'account',
            lazy: lazyScreen(() => import('../features/account/components/account-screen')),
          },
          // `/wiki` alone, the prefix without a page: the home screen lists them.
          { path: 'wiki', element: <Navigate to="/" replace /> },
          ...adminRoutes,
          { path: '*', Component: NotFoundScreen },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
