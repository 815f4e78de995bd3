import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../common/auth/auth-user';
import { roleAtLeast, type Role } from '../../common/auth/roles';
import type { Paged } from '../../common/http/pagination';
import { audit } from '../../common/logging/audit';
import { NotFoundProblem } from '../../common/problems/problem';
import { OAUTH_SCOPES, OAUTH_SCOPE_NAMES, type OAuthScope } from './oauth-base';
import {
  OAuthClientRef,
  OAuthClientResponse,
  OAuthDecisionResponse,
  OAuthGrantResponse,
  OAuthRequestResponse,
} from './oauth.dto';
import { OAuthRecord, OAuthRecordsRepository } from './oauth-records.repository';
import { OAuthServer } from './oauth-server';
import { tokenPaths } from '../tokens.service';
import type { OidcInteraction, OidcProvider } from './oidc-provider-module';

function requestGone(): NotFoundProblem {
  return new NotFoundProblem(
    'oauth_request',
    'This authorization request is unknown, expired or was started in another browser. Start again from the app.',
  );
}

function clientRef(id: string, payload: Record<string, unknown> | undefined): OAuthClientRef {
  const name = payload?.client_name;
  const uri = payload?.client_uri;
  return {
    id,
    name: typeof name === 'string' && name.trim() ? name : id,
    uri: typeof uri === 'string' ? uri : null,
  };
}

/** The kb scopes a request asks for (none named: read), and which of them the person can grant. */
function requestedScopes(params: Record<string, unknown>, role: Role) {
  const asked = String(params.scope ?? '')
    .split(' ')
    .filter((s): s is OAuthScope => (OAUTH_SCOPE_NAMES as string[]).includes(s));
  const scopes: OAuthScope[] = asked.length ? [...new Set(asked)] : ['read'];
  const granted = scopes.filter((s) => roleAtLeast(role, OAUTH_SCOPES[s].role));
  const widest = OAUTH_SCOPE_NAMES.filter((s) => granted.includes(s)).pop();
  return { scopes, granted, role: widest ? OAUTH_SCOPES[widest].role : null };
}

/**
 * The person's side of OAuth: the consent screen's request and decision (bound to the browser
 * that started the authorization by the provider's interaction cookie), the apps a person
 * authorised, and the administrators' view of every client with its ban.
 */
@Injectable()
export class OAuthAppsService {
  constructor(
    private readonly server: OAuthServer,
    private readonly records: OAuthRecordsRepository,
  ) {}

  private async interaction(
    req: Request,
    res: Response,
    uid: string,
  ): Promise<{ provider: OidcProvider; interaction: OidcInteraction }> {
    if (!this.server.config.enabled) throw requestGone();
    const provider = await this.server.provider(this.server.base(req));
    const interaction = await provider.interactionDetails(req, res).catch(() => null);
    if (!interaction || interaction.uid !== uid) throw requestGone();
    return { provider, interaction };
  }

  async request(
    req: Request,
    res: Response,
    user: AuthUser,
    uid: string,
  ): Promise<OAuthRequestResponse> {
    const { interaction } = await this.interaction(req, res, uid);
    const clientId = String(interaction.params.client_id);
    const [client] = await this.records.findClients([clientId]);
    if (!client || client.bannedAt) throw requestGone();
    const { scopes, granted, role } = requestedScopes(interaction.params, user.role);
    return {
      uid,
      client: clientRef(clientId, client.payload),
      redirectUri: String(interaction.params.redirect_uri),
      scopes: scopes.map((name) => ({
        name,
        description: OAUTH_SCOPES[name].description,
        granted: granted.includes(name),
      })),
      role: role ?? 'reader',
    };
  }

  async decide(
    req: Request,
    res: Response,
    user: AuthUser,
    uid: string,
    decision: 'approve' | 'deny',
    pathPatterns?: string[],
  ): Promise<OAuthDecisionResponse> {
    // Checked before the interaction is used up: a bad pattern is a 422 the person can fix.
    const paths = pathPatterns === undefined ? null : tokenPaths(pathPatterns);
    const { provider, interaction } = await this.interaction(req, res, uid);
    const params = interaction.params;
    const clientId = String(params.client_id);
    const { scopes, granted, role } = requestedScopes(params, user.role);
    if (decision === 'deny' || !role) {
      audit('oauth.grant.denied', { actorId: user.id, target: `oauth_client:${clientId}` });
      const redirectTo = await provider.interactionResult(
        req,
        res,
        { error: 'access_denied', error_description: 'The person did not allow this app.' },
        { mergeWithLastSubmission: false },
      );
      return { redirectTo };
    }
    const base = this.server.base(req);
    const resource =
      typeof params.resource === 'string'
        ? params.resource
        : Array.isArray(params.resource)
          ? String(params.resource[0])
          : `${base}/`;
    const grant = new provider.Grant({ accountId: user.id, clientId });
    grant.addResourceScope(resource, granted.join(' '));
    // The provider also counts kb's scopes among its own (see OAuthServer): they are answered
    // there too, so that its consent check finds every requested scope decided.
    const oidcScopes = String(params.scope ?? '')
      .split(' ')
      .filter((s) => s === 'openid' || s === 'offline_access');
    grant.addOIDCScope([...oidcScopes, ...granted].join(' '));
    for (const scope of scopes.filter((s) => !granted.includes(s))) {
      grant.rejectResourceScope(resource, scope);
      grant.rejectOIDCScope(scope);
    }
    const grantId = await grant.save();
    await this.records.setGrantScope(grantId, { role, paths });
    audit('oauth.grant.created', {
      actorId: user.id,
      target: `oauth_grant:${grantId}`,
      clientId,
      role,
      ...(paths ? { paths } : {}),
    });
    const redirectTo = await provider.interactionResult(
      req,
      res,
      { login: { accountId: user.id }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  }

  /** The apps `accountId` authorised (null: everyone's), newest first. */
  async grants(accountId: string | null): Promise<Paged<OAuthGrantResponse>> {
    const rows = await this.records.listGrants(accountId);
    const clients = await this.clientsById(rows.map((r) => r.clientId ?? ''));
    return { items: rows.map((row) => this.toGrant(row, clients)), nextCursor: null };
  }

  /** Revokes a grant and every token issued under it; another person's grant is "not found". */
  async revoke(user: AuthUser, grantId: string): Promise<void> {
    const grant = await this.records.findGrant(grantId);
    if (!grant || (grant.accountId !== user.id && user.role !== 'admin')) {
      throw new NotFoundProblem('oauth_grant');
    }
    await this.records.revokeGrant(grantId);
    audit('oauth.grant.revoked', {
      actorId: user.id,
      target: `oauth_grant:${grantId}`,
      ownerId: grant.accountId,
      clientId: grant.clientId,
    });
  }

  async clients(): Promise<Paged<OAuthClientResponse>> {
    const [clients, grants] = await Promise.all([
      this.records.listClients(),
      this.records.listGrants(null),
    ]);
    const byId = new Map(clients.map((c) => [c.id, c]));
    return {
      items: clients.map((row) => ({
        ...clientRef(row.id, row.payload),
        redirectUris: Array.isArray(row.payload.redirect_uris)
          ? row.payload.redirect_uris.map(String)
          : [],
        createdAt: row.createdAt.toISOString(),
        bannedAt: row.bannedAt?.toISOString() ?? null,
        grants: grants.filter((g) => g.clientId === row.id).map((g) => this.toGrant(g, byId)),
      })),
      nextCursor: null,
    };
  }

  /** Bans a client: it can no longer authorise, and every grant and token it holds ends now. */
  async ban(actor: AuthUser, clientId: string): Promise<void> {
    const [client] = await this.records.findClients([clientId]);
    if (!client) throw new NotFoundProblem('oauth_client');
    await this.records.banClient(clientId);
    audit('oauth.client.banned', { actorId: actor.id, target: `oauth_client:${clientId}` });
  }

  private async clientsById(ids: string[]): Promise<Map<string, OAuthRecord>> {
    const rows = await this.records.findClients([...new Set(ids.filter(Boolean))]);
    return new Map(rows.map((r) => [r.id, r]));
  }

  private toGrant(
    row: OAuthRecord & { username: string | null },
    clients: Map<string, OAuthRecord>,
  ): OAuthGrantResponse {
    const clientId = row.clientId ?? '';
    return {
      id: row.id,
      client: clientRef(clientId, clients.get(clientId)?.payload),
      scope: row.kbScope ?? { role: 'reader', paths: null },
      username: row.username,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
    };
  }
}
