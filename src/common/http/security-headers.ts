import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The security headers every answer carries. The CSP allows only same-origin resources, which
 * is what the OpenAPI UI at /api/docs needs; stored media set a stricter one of their own.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
  });
}
