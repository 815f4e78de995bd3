import { ConfigError, loadConfig } from './app-config';

const BASE = {
  KB_PUBLIC_URL: 'https://wiki.example.com',
  OIDC_PROVIDERS: 'keycloak',
  OIDC_KEYCLOAK_ISSUER: 'https://login.example.com/realms/staff',
  OIDC_KEYCLOAK_CLIENT_ID: 'kb',
  OIDC_KEYCLOAK_CLIENT_SECRET: 'secret',
};

function failure(env: Record<string, string>): { variable: string; message: string } {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
    throw error;
  }
  throw new Error('loadConfig accepted ' + JSON.stringify(env));
}

describe('OIDC configuration', () => {
  it('has no providers unless OIDC_PROVIDERS names some', () => {
    expect(loadConfig({}).oidcProviders).toEqual([]);
  });

  it('reads a provider with its defaults', () => {
    expect(loadConfig(BASE).oidcProviders).toEqual([
      {
        id: 'keycloak',
        name: 'keycloak',
        issuer: 'https://login.example.com/realms/staff',
        clientId: 'kb',
        clientSecret: 'secret',
        scopes: ['openid', 'profile', 'email'],
        usernameClaim: 'preferred_username',
        displayNameClaim: 'name',
        emailClaim: 'email',
        groupsClaim: 'groups',
        roleMap: [],
        groupMap: [],
      },
    ]);
  });

  it('reads every variable of several providers', () => {
    const [keycloak, google] = loadConfig({
      ...BASE,
      OIDC_PROVIDERS: 'keycloak, Google',
      OIDC_KEYCLOAK_NAME: 'Company SSO',
      OIDC_KEYCLOAK_SCOPES: 'openid profile email groups',
      OIDC_KEYCLOAK_USERNAME_CLAIM: 'email',
      OIDC_KEYCLOAK_GROUPS_CLAIM: 'roles',
      OIDC_KEYCLOAK_ROLE_MAP: '/kb-admins=admin, /kb-editors=editor',
      OIDC_KEYCLOAK_GROUP_MAP: '/staff/eng=Engineering,cn=ops=ops',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'g',
    }).oidcProviders;
    expect(keycloak).toMatchObject({
      name: 'Company SSO',
      scopes: ['openid', 'profile', 'email', 'groups'],
      usernameClaim: 'email',
      groupsClaim: 'roles',
      roleMap: [
        { idpGroup: '/kb-admins', role: 'admin' },
        { idpGroup: '/kb-editors', role: 'editor' },
      ],
      groupMap: [
        { idpGroup: '/staff/eng', kbGroup: 'engineering' },
        { idpGroup: 'cn=ops', kbGroup: 'ops' },
      ],
    });
    expect(google).toMatchObject({ id: 'google', clientSecret: undefined, name: 'Google' });
  });

  it.each([
    [{ KB_PUBLIC_URL: '' }, 'KB_PUBLIC_URL'],
    [{ OIDC_PROVIDERS: 'key-cloak' }, 'OIDC_PROVIDERS'],
    [{ OIDC_PROVIDERS: 'keycloak,KEYCLOAK' }, 'OIDC_PROVIDERS'],
    [{ OIDC_KEYCLOAK_ISSUER: '' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_ISSUER: 'http://login.example.com' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_ISSUER: 'not a url' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_CLIENT_ID: '' }, 'OIDC_KEYCLOAK_CLIENT_ID'],
    [{ OIDC_KEYCLOAK_SCOPES: 'profile email' }, 'OIDC_KEYCLOAK_SCOPES'],
    [{ OIDC_KEYCLOAK_USERNAME_CLAIM: 'a claim' }, 'OIDC_KEYCLOAK_USERNAME_CLAIM'],
    [{ OIDC_KEYCLOAK_ROLE_MAP: 'admins=owner' }, 'OIDC_KEYCLOAK_ROLE_MAP'],
    [{ OIDC_KEYCLOAK_ROLE_MAP: 'admins' }, 'OIDC_KEYCLOAK_ROLE_MAP'],
    [{ OIDC_KEYCLOAK_GROUP_MAP: 'eng=bad name' }, 'OIDC_KEYCLOAK_GROUP_MAP'],
  ])('refuses %j naming %s', (change, variable) => {
    expect(failure({ ...BASE, ...change }).variable).toBe(variable);
  });

  it('allows plain http only for a provider on this machine', () => {
    const [provider] = loadConfig({
      ...BASE,
      OIDC_KEYCLOAK_ISSUER: 'http://127.0.0.1:8080/',
    }).oidcProviders;
    expect(provider.issuer).toBe('http://127.0.0.1:8080/');
  });
});
