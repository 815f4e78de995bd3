import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { adminRoutes } from './admin/admin-routes';
import { PageScreen, type PageAddOns } from '../features/pages/components/page-screen';
import { CommentCount, CommentsPanel } from '../features/comments/components/comments-panel';
import { AppShell } from './layout/app-shell';
import { NotFoundScreen } from '../features/pages/components/not-found-screen';
import { RouteError } from './route-error';
import { CONSOLE_SCREENS, paths, routePath } from '../lib/routes';

/** A screen loaded on first use: a chunk of its own, out of the sign-in-and-read bundle. */
const lazyScreen =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/** What other features add to a page: the comments feature's count and panel. */
const PAGE_ADD_ONS: PageAddOns = { Badge: CommentCount, Aside: CommentsPanel };

/**
 * Console URLs, from the one table of screens (CONSOLE_SCREENS, src/console/console-routes.ts),
 * for which the server answers index.html, as it does for any address a browser navigates to
 * outside the API, which the last route answers
 * (a page address without `/wiki` opens the page; anything else is "Not found");
 * `/wiki/<slug>` is the canonical address of a page.
 */
const routes: RouteObject[] = [
  // A chunk of its own: a person signs in once and reads on every load after.
  {
    path: CONSOLE_SCREENS.login,
    lazy: async () => ({
      Component: (await import('../features/auth/components/login-screen')).LoginScreen,
    }),
    errorElement: <RouteError />,
  },
  // Where "Forgot password?" and the links of invitation and reset emails open (no shell).
  {
    path: CONSOLE_SCREENS.forgotPassword,
    lazy: lazyScreen(() => import('../features/auth/components/forgot-password-screen')),
    errorElement: <RouteError />,
  },
  {
    path: CONSOLE_SCREENS.resetPassword,
    lazy: lazyScreen(() => import('../features/auth/components/reset-password-screen')),
    errorElement: <RouteError />,
  },
  {
    path: CONSOLE_SCREENS.invitation,
    lazy: lazyScreen(() => import('../features/auth/components/invitation-screen')),
    errorElement: <RouteError />,
  },
  {
    path: CONSOLE_SCREENS.home,
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
          { path: routePath('page'), element: <PageScreen addOns={PAGE_ADD_ONS} /> },
          {
            path: routePath('search'),
            lazy: lazyScreen(() => import('../features/search/components/search-screen')),
          },
          {
            path: routePath('tags'),
            lazy: async () => ({
              Component: (await import('../features/pages/components/tag-screens')).TagsScreen,
            }),
          },
          {
            path: routePath('tag'),
            lazy: async () => ({
              Component: (await import('../features/pages/components/tag-screens')).TagScreen,
            }),
          },
          {
            path: routePath('newPage'),
            lazy: lazyScreen(() => import('../features/editor/components/editor-screen')),
          },
          {
            path: routePath('edit'),
            lazy: lazyScreen(() => import('../features/editor/components/editor-screen')),
          },
          {
            path: routePath('history'),
            lazy: lazyScreen(() => import('../features/revisions/components/history-screen')),
          },
          {
            path: routePath('notifications'),
            lazy: lazyScreen(() => import('../features/notifications/components/inbox-screen')),
          },
          {
            path: routePath('tokens'),
            lazy: lazyScreen(() => import('../features/tokens/components/tokens-screen')),
          },
          {
            path: routePath('drafts'),
            lazy: lazyScreen(() => import('../features/drafts/components/drafts-screen')),
          },
          {
            path: routePath('changeRequests'),
            lazy: lazyScreen(
              () => import('../features/change-requests/components/change-requests-screen'),
            ),
          },
          {
            path: routePath('changeRequest'),
            lazy: lazyScreen(
              () => import('../features/change-requests/components/change-request-screen'),
            ),
          },
          {
            path: routePath('oauthConsent'),
            lazy: lazyScreen(() => import('../features/oauth/components/consent-screen')),
          },
          {
            path: routePath('account'),
            lazy: lazyScreen(() => import('../features/account/components/account-screen')),
          },
          // `/wiki` alone, the prefix without a page: the home screen lists them.
          { path: routePath('wiki'), element: <Navigate to={paths.home()} replace /> },
          ...adminRoutes,
          { path: '*', Component: NotFoundScreen },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
