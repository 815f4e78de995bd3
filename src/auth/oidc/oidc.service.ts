import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { AppConfig, InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { OidcProviderConfig } from '../../common/config/oidc-config';
import { NotFoundProblem, Problem, UnauthorizedProblem } from '../../common/problems/problem';
import type { MeResponse } from '../auth.mapper';
import { newSessionSecret, sha256Hex } from '../secrets';
import { SsoAccountsService } from './sso-accounts.service';
import { auditSsoFailure, CLOCK_TOLERANCE_SECONDS, FLOW_TTL_MS, safeReturnTo } from './sso-flow';
import { SsoRepository } from './sso.repository';

/** Each request to a provider (discovery, token, userinfo) gives up after this long. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export interface SsoProviderSummary {
  id: string;
  name: string;
  protocol: 'oidc' | 'saml';
  signInUrl: string;
}

export interface OidcCallbackContext {
  ip: string;
  userAgent?: string;
  /** The browser-binding cookie set at the start. */
  binding?: string;
}

export interface OidcSignedIn {
  secret: string;
  maxAgeMs: number;
  me: MeResponse;
  /** Where the browser goes next: an address inside kb. */
  returnTo: string;
}

function invalidState(): Problem {
  return new Problem(
    HttpStatus.BAD_REQUEST,
    'sso_state_invalid',
    'This sign-in is unknown, expired or already used, or it was started in another browser. Start the sign-in again.',
  );
}

/**
 * Sign-in with OpenID Connect (authorization code with PKCE, state and nonce) through
 * openid-client. The provider's metadata is discovered once per process; everything about a
 * sign-in in progress is in the database (and a cookie binding it to the browser), so the
 * callback may reach any instance.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('Oidc');
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    @InjectConfig('oidc') private readonly oidcConfig: AppConfig['oidc'],
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
    private readonly sso: SsoRepository,
    private readonly accounts: SsoAccountsService,
  ) {}

  providers(): SsoProviderSummary[] {
    return this.oidcConfig.providers.map((p) => ({
      id: p.id,
      name: p.name,
      protocol: 'oidc',
      signInUrl: `/auth/oidc/${p.id}/login`,
    }));
  }

  private provider(id: string): OidcProviderConfig {
    const provider = this.oidcConfig.providers.find((p) => p.id === id);
    if (!provider) {
      throw new NotFoundProblem('sso_provider', `No sign-in provider named "${id}" is configured.`);
    }
    return provider;
  }

  /** The exact redirect URI registered at the provider. */
  redirectUri(provider: OidcProviderConfig): string {
    return `${this.httpConfig.publicUrl}/auth/oidc/${provider.id}/callback`;
  }

  /** Discovered once; a failed discovery is tried again by the next sign-in. */
  private configuration(provider: OidcProviderConfig): Promise<oidc.Configuration> {
    let configuration = this.configurations.get(provider.id);
    if (!configuration) {
      const execute = [oidc.enableNonRepudiationChecks];
      if (new URL(provider.issuer).protocol === 'http:') execute.push(oidc.allowInsecureRequests);
      configuration = oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        {
          // The ID token's signature is checked against the provider's keys (not only TLS).
          [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS,
        },
        provider.clientSecret ? oidc.ClientSecretBasic(provider.clientSecret) : oidc.None(),
        { execute, timeout: PROVIDER_TIMEOUT_SECONDS },
      );
      configuration.catch(() => this.configurations.delete(provider.id));
      this.configurations.set(provider.id, configuration);
    }
    return configuration.catch((error: unknown) => {
      this.logger.warn({
        msg: 'OIDC discovery failed',
        provider: provider.id,
        error: String(error),
      });
      throw unavailable();
    });
  }

  /**
   * Starts a sign-in: stores state, nonce and PKCE verifier under the hash of `state`, bound to
   * the browser's `binding` cookie, and answers the provider's authorization URL.
   */
  async start(id: string, returnTo: string | undefined, binding: string): Promise<string> {
    const provider = this.provider(id);
    const configuration = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.sso.insertLoginState({
      id: sha256Hex(state),
      provider: `oidc:${provider.id}`,
      bindingHash: sha256Hex(binding),
      nonce,
      codeVerifier,
      returnTo: this.safeReturnTo(returnTo),
      expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    });
    return oidc
      .buildAuthorizationUrl(configuration, {
        redirect_uri: this.redirectUri(provider),
        scope: provider.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      .toString();
  }

  safeReturnTo(returnTo: string | undefined): string {
    return safeReturnTo(this.httpConfig.publicUrl, returnTo);
  }

  /** Answers the provider's redirect: verifies it, signs the person in, starts a session. */
  async finish(id: string, query: string, context: OidcCallbackContext): Promise<OidcSignedIn> {
    const provider = this.provider(id);
    const providerKey = `oidc:${provider.id}`;
    const params = new URLSearchParams(query);
    const state = params.get('state');
    const flow = state ? await this.sso.consumeLoginState(sha256Hex(state)) : null;
    if (
      !state ||
      !flow ||
      flow.provider !== providerKey ||
      !context.binding ||
      sha256Hex(context.binding) !== flow.bindingHash
    ) {
      this.failed(providerKey, 'state_invalid', context.ip);
      throw invalidState();
    }
    const configuration = await this.configuration(provider);
    const claims = await this.verifiedClaims(provider, configuration, params, state, flow, context);
    // An address (Entra ID's UPN, Google's email) gives its local part: kb usernames hold no "@".
    const username = stringClaim(claims, provider.usernameClaim)?.replace(/@.*$/, '');
    if (!username) {
      this.failed(providerKey, 'claim_missing', context.ip);
      throw new Problem(
        HttpStatus.FORBIDDEN,
        'sso_claim_missing',
        `The identity provider did not send the "${provider.usernameClaim}" claim kb takes the username from.`,
      );
    }
    let user;
    try {
      user = await this.accounts.signIn(
        {
          provider: providerKey,
          subject: String(claims.sub),
          username,
          displayName: stringClaim(claims, provider.displayNameClaim),
          // Only an address the provider vouches for may join a local account (SSO_LINK_BY_EMAIL).
          email:
            claims.email_verified === true ? stringClaim(claims, provider.emailClaim) : undefined,
          groups: listClaim(claims, provider.groupsClaim),
        },
        provider,
      );
    } catch (error) {
      if (error instanceof Problem) this.failed(providerKey, error.code, context.ip);
      throw error;
    }
    const signedIn = await this.accounts.startSession(user, providerKey, context);
    return {
      ...signedIn,
      returnTo: new URL(flow.returnTo, `${this.httpConfig.publicUrl}/`).toString(),
    };
  }

  /** The ID token's claims (signature, issuer, audience, expiry, nonce checked) with userinfo's. */
  private async verifiedClaims(
    provider: OidcProviderConfig,
    configuration: oidc.Configuration,
    params: URLSearchParams,
    state: string,
    flow: { nonce: string; codeVerifier: string },
    context: OidcCallbackContext,
  ): Promise<Record<string, unknown>> {
    const providerKey = `oidc:${provider.id}`;
    // The exact redirect URI of the start, with the provider's answer as its query.
    const currentUrl = new URL(`${this.redirectUri(provider)}?${params.toString()}`);
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      const userinfo = configuration.serverMetadata().userinfo_endpoint
        ? await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)
        : {};
      // What the signed ID token says wins over userinfo.
      return { ...userinfo, ...idClaims };
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError) {
        this.failed(providerKey, `provider_refused:${error.error}`, context.ip);
        throw new Problem(
          HttpStatus.UNAUTHORIZED,
          'sso_denied',
          `The identity provider did not sign you in (${error.error}).`,
        );
      }
      if (isNetworkError(error)) {
        this.logger.warn({
          msg: 'OIDC provider unreachable',
          provider: provider.id,
          error: String(error),
        });
        throw unavailable();
      }
      // A bad signature, issuer, audience, expiry or nonce, or a code the provider refuses.
      this.failed(providerKey, 'token_invalid', context.ip, verificationError(error));
      throw new UnauthorizedProblem(
        'sso_token_invalid',
        'The identity provider’s answer could not be verified, so nobody was signed in. Start the sign-in again.',
      );
    }
  }

  private failed(provider: string, reason: string, ip: string, detail?: string): void {
    auditSsoFailure(provider, reason, ip, detail);
  }

  /**
   * Where to send the browser to end the provider's session too (RP-initiated logout), for a
   * session the provider made; null when it did not or the provider has no end-session endpoint.
   */
  async endSessionUrl(sessionId: string): Promise<string | null> {
    const key = await this.sso.providerOfSession(sessionId);
    const provider = this.oidcConfig.providers.find((p) => `oidc:${p.id}` === key);
    if (!provider) return null;
    let configuration: oidc.Configuration;
    try {
      configuration = await this.configuration(provider);
    } catch {
      return null;
    }
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc
      .buildEndSessionUrl(configuration, {
        client_id: provider.clientId,
        post_logout_redirect_uri: `${this.httpConfig.publicUrl}/login`,
      })
      .toString();
  }

  /** A new browser-binding secret for the `kb_sso` cookie. */
  newBinding(): string {
    return newSessionSecret();
  }
}

function unavailable(): Problem {
  return new Problem(
    HttpStatus.BAD_GATEWAY,
    'sso_provider_unavailable',
    'The identity provider could not be reached. Try again in a moment.',
  );
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true;
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}

/**
 * What openid-client said was wrong, with the errors it wraps (their messages only: a cause that
 * is not an Error may hold the token's claims or a response body, which stay out of the log).
 */
function verificationError(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages.join(': ') || 'unknown error';
}

function stringClaim(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A groups claim: an array of strings, or one string. */
function listClaim(claims: Record<string, unknown>, name: string): string[] {
  const value = claims[name];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string');
}
