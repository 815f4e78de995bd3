import type { Request } from 'express';

/**
 * The address kb is reached at, without a trailing slash: KB_PUBLIC_URL, else the request's own
 * origin (Express reads X-Forwarded-* only under TRUST_PROXY). The OAuth issuer and the protected
 * resource are this address.
 */
export function publicBase(req: Request, publicUrl: string | undefined): string {
  return publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** Where a client learns which authorization server protects kb's API (RFC 9728). */
export function resourceMetadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource`;
}

/** The scopes an app may ask for, each the most a role can do (capped by the person's role). */
export const OAUTH_SCOPES = {
  read: { role: 'reader', description: 'Read the pages you can see, search and browse.' },
  write: { role: 'editor', description: 'Create, edit and move pages as you.' },
  admin: { role: 'admin', description: 'Everything an administrator can do, as you.' },
} as const;
export type OAuthScope = keyof typeof OAUTH_SCOPES;
export const OAUTH_SCOPE_NAMES = Object.keys(OAUTH_SCOPES) as OAuthScope[];
