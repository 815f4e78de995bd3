import { Injectable, Logger } from '@nestjs/common';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { OAuthConfig } from '../../common/config/oauth-config';
import { UsersService } from '../users.service';
import { OAUTH_SCOPE_NAMES, publicBase } from './oauth-base';
import { OAuthRecordsRepository } from './oauth-records.repository';
import { oauthAdapterClass } from './oauth-adapter';
import { OidcProvider, oidcProviderModule } from './oidc-provider-module';

/** How many issuers (request origins, without KB_PUBLIC_URL) get a provider in one process. */
const MAX_ISSUERS = 8;

interface ServerKeys {
  jwk: Record<string, unknown>;
  cookieKey: string;
}

/** The console screen where a person approves or denies an app (CONSOLE_SCREENS.oauthConsent). */
export function consentPath(uid: string): string {
  return `/consent/${uid}`;
}

/** The resource identifiers (RFC 8707) kb's API answers to: the site, and /mcp. */
export function acceptedResources(base: string): Set<string> {
  return new Set([base, `${base}/`, `${base}/mcp`, `${base}/api`]);
}

/**
 * kb as an OAuth 2.1 authorization server for its own API: oidc-provider (a certified
 * implementation) configured for kb and mounted at /oauth, storing everything in
 * `oauth_records`. kb adds only what is kb's: who the person is (the console session, at the
 * consent screen), what a scope lets an app do (a role, capped by the person's), and the
 * storage. The issuer is the site's address; the authorization server metadata is served at
 * /.well-known/oauth-authorization-server (RFC 8414).
 */
@Injectable()
export class OAuthServer {
  private readonly logger = new Logger('OAuth');
  private readonly providers = new Map<string, Promise<OidcProvider>>();
  private keys?: Promise<ServerKeys>;

  constructor(
    @InjectConfig('oauth') readonly config: OAuthConfig,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
    private readonly records: OAuthRecordsRepository,
    private readonly users: UsersService,
  ) {}

  base(req: Request): string {
    return publicBase(req, this.httpConfig.publicUrl);
  }

  /** The provider of the issuer `base` (one per process; several only without KB_PUBLIC_URL). */
  provider(base: string): Promise<OidcProvider> {
    let provider = this.providers.get(base);
    if (!provider) {
      if (this.providers.size >= MAX_ISSUERS) this.providers.clear();
      provider = this.create(base);
      provider.catch(() => this.providers.delete(base));
      this.providers.set(base, provider);
    }
    return provider;
  }

  /**
   * Express middleware for /oauth/* and the metadata document, mounted before kb's body
   * parsers (oidc-provider reads its own bodies).
   */
  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, res, next) => {
      const metadata = req.path === '/.well-known/oauth-authorization-server';
      if (!metadata && !req.path.startsWith('/oauth/')) return next();
      if (!this.config.enabled) return next();
      if (metadata) {
        // RFC 8414 metadata of an issuer without a path: the provider's discovery document,
        // which is a superset of it, answered as if asked at the provider's own address.
        req.url = '/oauth/.well-known/openid-configuration';
      }
      const url = req.url;
      this.provider(this.base(req))
        .then((provider) => {
          // oidc-provider computes its endpoints' addresses from originalUrl minus url.
          req.originalUrl = url;
          req.url = url.slice('/oauth'.length) || '/';
          provider.callback()(req as IncomingMessage, res as ServerResponse);
        })
        .catch(next);
    };
  }

  private serverKeys(): Promise<ServerKeys> {
    this.keys ??= this.loadKeys();
    this.keys.catch(() => (this.keys = undefined));
    return this.keys;
  }

  /** The signing key and cookie key, made by the first instance and shared through the database. */
  private async loadKeys(): Promise<ServerKeys> {
    const existing = await this.records.find('KbServerKeys', 'current');
    if (existing) return existing.payload as unknown as ServerKeys;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = {
      ...privateKey.export({ format: 'jwk' }),
      alg: 'RS256',
      use: 'sig',
      kid: randomBytes(8).toString('hex'),
    };
    const keys: ServerKeys = { jwk, cookieKey: randomBytes(32).toString('base64url') };
    await this.records.insertIfAbsent(
      'KbServerKeys',
      'current',
      keys as unknown as Record<string, unknown>,
    );
    // Another instance may have won the race: everyone uses the stored pair.
    const stored = await this.records.find('KbServerKeys', 'current');
    return (stored?.payload ?? keys) as unknown as ServerKeys;
  }

  private async create(base: string): Promise<OidcProvider> {
    const { default: Provider, errors, interactionPolicy } = oidcProviderModule();
    const keys = await this.serverKeys();
    const policy = interactionPolicy.base();
    // kb's own sign-in decides who the person is, every time: an authorization always reaches
    // the consent screen, where the console session names the account.
    policy
      .get('login')
      ?.checks.add(
        new interactionPolicy.Check(
          'kb_consent',
          'the person approves at kb',
          (ctx) => !ctx.oidc.result?.login,
        ),
      );
    const accessSeconds = this.config.accessTokenSeconds;
    const refreshSeconds = this.config.refreshTokenDays * 86_400;
    const resources = acceptedResources(base);
    const provider = new Provider(base, {
      adapter: oauthAdapterClass(this.records),
      clients: [],
      jwks: { keys: [keys.jwk] },
      cookies: {
        keys: [keys.cookieKey],
        names: {
          session: 'kb_oauth_session',
          interaction: 'kb_oauth_interaction',
          resume: 'kb_oauth_resume',
        },
        // The interaction cookie is read by the consent API (/api/oauth/...), not only at the
        // screen's own path: it binds the consent to the browser that started the request.
        short: { httpOnly: true, sameSite: 'lax', path: '/' },
        long: { httpOnly: true, sameSite: 'lax' },
      },
      routes: {
        authorization: '/authorize',
        token: '/token',
        registration: '/register',
        revocation: '/revoke',
        jwks: '/jwks',
        userinfo: '/userinfo',
        end_session: '/logout',
        introspection: '/introspect',
        pushed_authorization_request: '/par',
        code_verification: '/device',
        device_authorization: '/device/auth',
        backchannel_authentication: '/backchannel',
        challenge: '/challenge',
      },
      // kb's scopes are the resource's (getResourceServerInfo); listed here too because
      // registration checks a client's `scope` against this list (MCP clients send one).
      scopes: ['openid', 'offline_access', ...OAUTH_SCOPE_NAMES],
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => `${base}/`,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => {
            if (!resources.has(resource)) throw new errors.InvalidTarget();
            return {
              scope: OAUTH_SCOPE_NAMES.join(' '),
              audience: resource,
              accessTokenTTL: accessSeconds,
              accessTokenFormat: 'opaque',
            };
          },
        },
      },
      pkce: { required: () => true },
      responseTypes: ['code'],
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      interactions: {
        policy,
        url: (_ctx: unknown, interaction: { uid: string }) => consentPath(interaction.uid),
      },
      loadExistingGrant: async (ctx: {
        oidc: {
          result?: { consent?: { grantId?: string } };
          provider: OidcProvider & { Grant: { find(id: string): Promise<unknown> } };
        };
      }) => {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      findAccount: async (_ctx: unknown, id: string) => {
        const user = await this.users.findActiveById(id);
        if (!user) return undefined;
        return {
          accountId: id,
          claims: () => ({ sub: id, preferred_username: user.username, name: user.displayName }),
        };
      },
      issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
        client.grantTypeAllowed('refresh_token'),
      // Every use of a refresh token answers a new one and consumes the old; presenting a
      // consumed one revokes the whole grant (OAuth 2.1 §4.3.1, reuse detection).
      rotateRefreshToken: () => true,
      expiresWithSession: () => false,
      ttl: {
        AccessToken: accessSeconds,
        AuthorizationCode: 60,
        RefreshToken: refreshSeconds,
        Grant: refreshSeconds,
        Interaction: 600,
        Session: 600,
        IdToken: 600,
      },
      enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    });
    provider.proxy = this.httpConfig.trustProxy !== false;
    provider.on('server_error', (_ctx, error) =>
      this.logger.error(`OAuth server error: ${String(error)}`),
    );
    return provider;
  }
}
