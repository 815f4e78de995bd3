import { HttpStatus, Injectable } from '@nestjs/common';
import {
  generateServiceProviderMetadata,
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
  type Profile,
} from '@node-saml/node-saml';
import { randomBytes } from 'node:crypto';
import { AppConfig, InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { SamlProviderConfig } from '../../common/config/saml-config';
import {
  BadRequestProblem,
  ForbiddenProblem,
  NotFoundProblem,
  Problem,
  UnauthorizedProblem,
} from '../../common/problems/problem';
import type { OidcSignedIn, SsoProviderSummary } from '../oidc/oidc.service';
import { SsoAccountsService } from '../oidc/sso-accounts.service';
import {
  auditSsoFailure,
  CLOCK_TOLERANCE_SECONDS,
  FLOW_TTL_MS,
  safeReturnTo,
} from '../oidc/sso-flow';
import { SsoRepository } from '../oidc/sso.repository';
import { sha256Hex } from '../secrets';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SKEW_MS = CLOCK_TOLERANCE_SECONDS * 1000;

export interface SamlPostContext {
  ip: string;
  userAgent?: string;
}

/** What the assertion consumer received (the HTTP-POST binding's form fields). */
export interface SamlPost {
  SAMLResponse?: string;
  RelayState?: string;
}

/** An assertion that failed one of kb's checks (its words go to the audit line, not the answer). */
class AssertionRefused extends Error {}

/** xml2js's view of the parts of a verified assertion kb reads. */
interface XmlNode {
  $?: Record<string, string>;
  _?: string;
  [child: string]: unknown;
}

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function timestamp(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new AssertionRefused(`${what} is not a time`);
  return ms;
}

function invalidAssertion(): Problem {
  return new UnauthorizedProblem(
    'sso_assertion_invalid',
    'The identity provider’s answer could not be verified, so nobody was signed in. Start the sign-in again.',
  );
}

/**
 * Sign-in with SAML 2.0 as a service provider, through node-saml: kb sends an AuthnRequest by
 * the HTTP-Redirect binding and receives the IdP's Response at its assertion consumer (HTTP-POST).
 * node-saml checks the assertion's signature against the IdP's certificate, its time window and
 * audience (and decrypts it); kb checks issuer, recipient and subject confirmation, refuses
 * replayed assertions and answers only its own requests (ids in the database, never in memory),
 * unless IdP-initiated sign-in is enabled for the provider.
 */
@Injectable()
export class SamlService {
  constructor(
    @InjectConfig('saml') private readonly samlConfig: AppConfig['saml'],
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
    private readonly sso: SsoRepository,
    private readonly accounts: SsoAccountsService,
  ) {}

  providers(): SsoProviderSummary[] {
    return this.samlConfig.providers.map((p) => ({
      id: p.id,
      name: p.name,
      protocol: 'saml',
      signInUrl: `/auth/saml/${p.id}/login`,
    }));
  }

  private provider(id: string): SamlProviderConfig {
    const provider = this.samlConfig.providers.find((p) => p.id === id);
    if (!provider) {
      throw new NotFoundProblem('sso_provider', `No sign-in provider named "${id}" is configured.`);
    }
    return provider;
  }

  /** The assertion consumer service: the IdP posts its Response here. */
  acsUrl(provider: SamlProviderConfig): string {
    return `${this.httpConfig.publicUrl}/auth/saml/${provider.id}/acs`;
  }

  private saml(provider: SamlProviderConfig, requestId?: string): SAML {
    return new SAML({
      entryPoint: provider.entryPoint,
      issuer: provider.spEntityId,
      callbackUrl: this.acsUrl(provider),
      idpCert: provider.idpCerts,
      idpIssuer: provider.idpIssuer,
      audience: provider.spEntityId,
      // The assertion itself must be signed (a signature on the Response alone is not enough).
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SKEW_MS,
      // kb checks InResponseTo itself, against the request ids in `sso_login_states`.
      validateInResponseTo: ValidateInResponseTo.never,
      // No NameIDPolicy format and no authentication context: the IdP's configured ones apply.
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      decryptionPvk: provider.decryption?.privateKey,
      signatureAlgorithm: 'sha256',
      generateUniqueId: () => requestId ?? newRequestId(),
    });
  }

  /** kb's SP metadata for the IdP: entity id, assertion consumer, encryption certificate. */
  metadata(id: string): string {
    const provider = this.provider(id);
    return generateServiceProviderMetadata({
      issuer: provider.spEntityId,
      callbackUrl: this.acsUrl(provider),
      identifierFormat: null,
      wantAssertionsSigned: true,
      // node-saml advertises the encryption certificate only alongside the key that decrypts.
      decryptionPvk: provider.decryption?.privateKey,
      decryptionCert: provider.decryption?.cert ?? null,
    });
  }

  /**
   * Starts a sign-in: stores the AuthnRequest's id (hashed) with where to land afterwards, and
   * answers the IdP's sign-on URL carrying the request (HTTP-Redirect binding).
   */
  async start(id: string, returnTo: string | undefined): Promise<string> {
    const provider = this.provider(id);
    const requestId = newRequestId();
    await this.sso.insertLoginState({
      id: sha256Hex(requestId),
      provider: `saml:${provider.id}`,
      // The IdP answers with a cross-site POST, which a SameSite=Lax cookie does not reach: the
      // request id (once, within FLOW_TTL_MS) is what ties an answer to a sign-in kb started.
      bindingHash: '',
      nonce: '',
      codeVerifier: '',
      returnTo: safeReturnTo(this.httpConfig.publicUrl, returnTo),
      expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    });
    return this.saml(provider, requestId).getAuthorizeUrlAsync('', undefined, {});
  }

  /** Answers the IdP's POST to the assertion consumer: verifies it, signs in, starts a session. */
  async consume(id: string, post: SamlPost, context: SamlPostContext): Promise<OidcSignedIn> {
    const provider = this.provider(id);
    const key = `saml:${provider.id}`;
    const refuse = (reason: string, problem: Problem, detail?: string): Problem => {
      auditSsoFailure(key, reason, context.ip, detail);
      return problem;
    };
    if (typeof post.SAMLResponse !== 'string' || post.SAMLResponse.trim() === '') {
      throw refuse(
        'response_missing',
        new BadRequestProblem(
          'sso_response_missing',
          'This address receives a SAML Response from the identity provider (the form field SAMLResponse).',
        ),
      );
    }
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(provider).validatePostResponseAsync({
        SAMLResponse: post.SAMLResponse,
      }));
    } catch (error) {
      if (error instanceof SamlStatusError) {
        throw refuse(
          'provider_refused',
          new UnauthorizedProblem('sso_denied', 'The identity provider did not sign you in.'),
          error.message,
        );
      }
      // A broken signature, an expired or not yet valid assertion, another audience, …
      throw refuse('assertion_invalid', invalidAssertion(), messageOf(error));
    }
    if (!profile) throw refuse('assertion_invalid', invalidAssertion(), 'no assertion');

    let checked: { assertionId: string; inResponseTo?: string; expiresAt: Date };
    try {
      checked = this.check(provider, profile);
    } catch (error) {
      if (!(error instanceof AssertionRefused)) throw error;
      throw refuse('assertion_invalid', invalidAssertion(), error.message);
    }
    if (!(await this.sso.recordAssertion(key, sha256Hex(checked.assertionId), checked.expiresAt))) {
      throw refuse(
        'assertion_replayed',
        new BadRequestProblem(
          'sso_assertion_replayed',
          'This answer of the identity provider was used before, so nobody was signed in. Start the sign-in again.',
        ),
      );
    }

    let returnTo: string;
    if (checked.inResponseTo) {
      const flow = await this.sso.consumeLoginState(sha256Hex(checked.inResponseTo));
      if (!flow || flow.provider !== key) {
        throw refuse(
          'state_invalid',
          new BadRequestProblem(
            'sso_state_invalid',
            'This sign-in is unknown, expired or already used. Start the sign-in again.',
          ),
        );
      }
      returnTo = flow.returnTo;
    } else if (provider.idpInitiated) {
      returnTo = safeReturnTo(this.httpConfig.publicUrl, post.RelayState);
    } else {
      throw refuse(
        'idp_initiated_refused',
        new ForbiddenProblem(
          'sso_idp_initiated_refused',
          'kb did not ask for this sign-in: start it from kb’s sign-in screen.',
        ),
      );
    }

    const username = this.attribute(profile, provider.usernameAttribute)?.replace(/@.*$/, '');
    if (!username || !profile.nameID) {
      throw refuse(
        'claim_missing',
        new Problem(
          HttpStatus.FORBIDDEN,
          'sso_claim_missing',
          `The identity provider did not send the "${provider.usernameAttribute}" attribute kb takes the username from.`,
        ),
      );
    }
    let user;
    try {
      user = await this.accounts.signIn(
        {
          provider: key,
          subject: profile.nameID,
          username,
          displayName: this.attribute(profile, provider.displayNameAttribute),
          email: this.attribute(profile, provider.emailAttribute),
          groups: listAttribute(profile, provider.groupsAttribute),
        },
        provider,
      );
    } catch (error) {
      if (error instanceof Problem) auditSsoFailure(key, error.code, context.ip);
      throw error;
    }
    const signedIn = await this.accounts.startSession(user, key, context);
    return { ...signedIn, returnTo: new URL(returnTo, `${this.httpConfig.publicUrl}/`).toString() };
  }

  /**
   * What node-saml leaves to its caller: the assertion's issuer, a bearer subject confirmation
   * for this assertion consumer (recipient) within its time window, and one InResponseTo.
   */
  private check(
    provider: SamlProviderConfig,
    profile: Profile,
  ): { assertionId: string; inResponseTo?: string; expiresAt: Date } {
    if (profile.issuer !== provider.idpIssuer) {
      throw new AssertionRefused(`issuer "${profile.issuer}" is not ${provider.idpIssuer}`);
    }
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    const assertionId = assertion?.$?.ID;
    if (!assertion || !assertionId) throw new AssertionRefused('the assertion has no ID');
    const now = Date.now();
    const acs = this.acsUrl(provider);
    const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
      .filter((c) => c.$?.Method === BEARER)
      .map((c) => children(c, 'SubjectConfirmationData')[0]?.$ ?? {});
    if (confirmations.length === 0) throw new AssertionRefused('no bearer subject confirmation');
    const data = confirmations.find((d) => d.Recipient === acs);
    if (!data) {
      const got = confirmations.map((d) => d.Recipient ?? '(none)').join(', ');
      throw new AssertionRefused(`recipient ${got} is not ${acs}`);
    }
    const notOnOrAfter = timestamp(data.NotOnOrAfter, 'NotOnOrAfter');
    const notBefore = timestamp(data.NotBefore, 'NotBefore');
    if (notOnOrAfter === undefined)
      throw new AssertionRefused('subject confirmation never expires');
    if (now - SKEW_MS >= notOnOrAfter) throw new AssertionRefused('subject confirmation expired');
    if (notBefore !== undefined && now + SKEW_MS < notBefore) {
      throw new AssertionRefused('subject confirmation not yet valid');
    }
    const inAssertion = data.InResponseTo;
    const inResponse = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
    if (inAssertion && inResponse && inAssertion !== inResponse) {
      throw new AssertionRefused('InResponseTo of the response and the assertion differ');
    }
    return {
      assertionId,
      inResponseTo: inAssertion ?? inResponse,
      // Kept until the confirmation can no longer be accepted by any instance.
      expiresAt: new Date(notOnOrAfter + SKEW_MS),
    };
  }

  /** An attribute's first value; `nameID` is the subject's NameID. */
  private attribute(profile: Profile, name: string): string | undefined {
    const value = name === 'nameID' ? profile.nameID : listAttribute(profile, name)[0];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
}

/** An attribute's values as strings (one value or several). */
function listAttribute(profile: Profile, name: string): string[] {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const value = attributes[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** An AuthnRequest ID: an xs:ID (starts with a letter or "_"), 160 random bits. */
function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : 'unknown error';
}
