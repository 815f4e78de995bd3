import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The parts of oidc-provider (an ES module without type declarations) kb uses. Loaded with
 * require(): Node 20.19+ loads ES modules that way, and its `default` is the Provider class both
 * under Node and under Jest (which compiles it to CommonJS).
 */
export interface OidcInteraction {
  uid: string;
  returnTo: string;
  exp: number;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  grantId?: string;
}

export interface OidcGrant {
  accountId?: string;
  clientId?: string;
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  rejectResourceScope(resource: string, scope: string): void;
  rejectOIDCScope(scope: string): void;
  save(): Promise<string>;
}

export interface OidcAccessToken {
  accountId?: string;
  clientId?: string;
  grantId?: string;
  scope?: string;
  aud?: string | string[];
  exp?: number;
}

export interface OidcProvider {
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>;
  interactionResult(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<string>;
  Grant: new (init: { accountId: string; clientId: string }) => OidcGrant;
  AccessToken: { find(token: string): Promise<OidcAccessToken | undefined> };
  Client: { find(id: string): Promise<Record<string, unknown> | undefined> };
  on(event: string, listener: (...args: unknown[]) => void): void;
}

export interface OidcCheck {
  new (
    reason: string,
    description: string,
    check: (ctx: { oidc: { result?: { login?: unknown } } }) => boolean,
  ): unknown;
}

export interface OidcProviderModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  errors: { InvalidTarget: new (detail?: string) => Error };
  interactionPolicy: {
    Check: OidcCheck;
    base(): { get(name: string): { checks: { add(check: unknown): void } } | undefined };
  };
}

let loaded: OidcProviderModule | undefined;

export function oidcProviderModule(): OidcProviderModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('oidc-provider') as OidcProviderModule;
  return loaded;
}
