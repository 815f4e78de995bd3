import { Navigate, type RouteObject } from 'react-router';
import { paths, routePath } from '../../lib/routes';

/** A workspace screen loaded on first use: a chunk of its own. */
const screen =
  (load: () => Promise<{ default: React.ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default });

/**
 * The administrator's workspace under /admin: the layout (navigation, the admin check) and
 * every screen are lazy chunks, so nothing of it loads until someone opens /admin; the graph
 * library loads only with the Graph screen.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: routePath('admin'),
    lazy: screen(() => import('./admin-layout')),
    children: [
      { index: true, element: <Navigate to="import" replace /> },
      {
        path: 'import',
        lazy: screen(() => import('../../features/transfer/components/import-screen')),
      },
      {
        path: 'export',
        lazy: screen(() => import('../../features/transfer/components/export-screen')),
      },
      { path: 'bin', lazy: screen(() => import('../../features/site/components/bin-screen')) },
      {
        path: 'users',
        lazy: screen(() => import('../../features/people/components/users-screen')),
      },
      {
        path: 'groups',
        lazy: screen(() => import('../../features/people/components/groups-screen')),
      },
      {
        path: 'variables',
        lazy: screen(() => import('../../features/site/components/variables-screen')),
      },
      { path: 'graph', lazy: screen(() => import('../../features/site/components/graph-screen')) },
      {
        path: 'review',
        lazy: screen(() => import('../../features/site/components/review-due-screen')),
      },
      {
        path: 'mcp',
        lazy: screen(() => import('../../features/integrations/components/mcp-screen')),
      },
      {
        path: 'apps',
        lazy: screen(() => import('../../features/integrations/components/apps-screen')),
      },
      { path: '*', element: <Navigate to={paths.admin('import')} replace /> },
    ],
  },
];
