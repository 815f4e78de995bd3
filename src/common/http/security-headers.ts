import type { RequestHandler } from 'express';
import helmet from 'helmet';

const DIRECTIVES: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
};

/**
 * The security headers every answer carries. The CSP allows only same-origin resources, which
 * is what the OpenAPI UI at /api/docs needs; stored media set a stricter one of their own.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
  });
}

/**
 * The policy of the console's documents: the same (no inline or foreign script), except that
 * pages may show images from other https servers, as sanitised page HTML allows them.
 */
export function consoleContentSecurityPolicy(): string {
  const directives = { ...DIRECTIVES, imgSrc: [...DIRECTIVES.imgSrc, 'https:'] };
  return Object.entries(directives)
    .map(
      ([name, values]) =>
        `${name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} ${values.join(' ')}`,
    )
    .join('; ');
}
