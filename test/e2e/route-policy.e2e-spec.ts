import { listRoutes, RouteInfo } from '../../src/common/http/route-inventory';
import { createTestApp, TestApp } from '../support/test-app';

/** Nest paths (`:id`, `*slug`, `{*slug}`) and OpenAPI paths (`{id}`) compared by shape. */
function shape(path: string): string {
  return path.replace(/\{[^}]+\}|:[A-Za-z0-9_]+|\*[A-Za-z0-9_]*/g, '{}');
}

function expectedSecurity(route: RouteInfo): Record<string, string[]>[] {
  switch (route.auth) {
    case 'public':
      return [];
    case 'session':
      return [{ session: [] }];
    case 'bearer':
      return [{ bearer: [] }];
    default:
      return [{ session: [] }, { bearer: [] }];
  }
}

describe('route policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // A diff in this snapshot is a PERMISSION CHANGE: who may call which route with which
  // credentials. Review it as one before updating the snapshot (jest -u).
  it('matches the reviewed snapshot of every route with its policy', () => {
    const routes = listRoutes(t.app).map(
      (r) =>
        `${r.method.padEnd(6)} ${r.path}  auth=${r.auth} roles=${Array.isArray(r.roles) ? r.roles.join(',') : r.roles}`,
    );
    expect(routes).toMatchSnapshot();
  });

  it('keeps the fixed policies of the design', () => {
    const routes = listRoutes(t.app);
    const find = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.path === path);
    expect(find('POST', '/auth/login')).toEqual(expect.objectContaining({ auth: 'public' }));
    expect(find('GET', '/healthz')).toEqual(expect.objectContaining({ auth: 'public' }));
    expect(find('GET', '/readyz')).toEqual(expect.objectContaining({ auth: 'public' }));
    for (const r of routes.filter(
      (r) => r.path.startsWith('/api/tokens') || r.path.startsWith('/export/'),
    )) {
      expect({ route: `${r.method} ${r.path}`, auth: r.auth }).toEqual({
        route: `${r.method} ${r.path}`,
        auth: 'session',
      });
    }
    for (const r of routes.filter((r) => r.path.startsWith('/api/users'))) {
      expect({ route: `${r.method} ${r.path}`, roles: r.roles }).toEqual({
        route: `${r.method} ${r.path}`,
        roles: ['admin'],
      });
    }
    // Only the operations probes, the ways to sign in and the OAuth protected resource
    // metadata (docs/oauth.md) are open to anonymous callers.
    expect(
      routes
        .filter((r) => r.auth === 'public')
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /auth/oidc/:id/callback',
      'GET /auth/oidc/:id/login',
      'GET /auth/password-reset',
      'GET /auth/providers',
      'GET /auth/saml/:id/login',
      'GET /auth/saml/:id/metadata',
      'GET /healthz',
      'GET /readyz',
      'POST /auth/2fa/enrol',
      'POST /auth/2fa/enrol/enable',
      'POST /auth/2fa/verify',
      'POST /auth/invitations/accept',
      'POST /auth/invitations/lookup',
      'POST /auth/login',
      'POST /auth/passkey/options',
      'POST /auth/passkey/verify',
      'POST /auth/password-reset',
      'POST /auth/password-reset/confirm',
      'POST /auth/saml/:id/acs',
    ]);
  });

  it('describes every route in the OpenAPI document with the security the guard enforces', async () => {
    interface Operation {
      security?: unknown;
      'x-kb-roles'?: unknown;
      'x-kb-route'?: string;
    }
    const doc = (await t.http().get('/api/docs/json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'session']);
    // Each operation names the route that serves it; one route may serve two described paths
    // (`/api/pages/{slug}` and `/api/pages/{slug}/raw`), which then share its policy.
    const byRoute = new Map<string, Operation[]>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const route = operation['x-kb-route'];
        expect({ path, method, route: shape(route ?? '') }).toEqual({
          path,
          method,
          route: `${method.toUpperCase()} ${shape(path)}`.replace(
            / \/api\/pages\/\{\}\/raw$/,
            ' /api/pages/{}',
          ),
        });
        byRoute.set(route!, [...(byRoute.get(route!) ?? []), operation]);
      }
    }
    const routes = listRoutes(t.app);
    const described = routes.flatMap((r) =>
      (byRoute.get(`${r.method} ${r.path}`) ?? [{}]).map((operation: Operation) => ({
        route: `${r.method} ${r.path}`,
        security: operation.security,
        roles: operation['x-kb-roles'],
      })),
    );
    expect(described).toEqual(
      described.map(({ route }) => {
        const r = routes.find((x) => `${x.method} ${x.path}` === route)!;
        return { route, security: expectedSecurity(r), roles: r.roles };
      }),
    );
    expect([...byRoute.keys()].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });
});
