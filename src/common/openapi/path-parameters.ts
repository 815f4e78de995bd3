import type { ParameterObject } from '@nestjs/swagger';

/**
 * Path parameters that span several segments (Nest's `*slug` wildcards). OpenAPI 3.0 has no
 * multi-segment parameter, so these follow GitHub's REST description: `x-multi-segment: true`,
 * plus `allowReserved: true` (OpenAPI 3.2's meaning: `/` may be sent as is) and a description
 * saying both spellings work. Generated clients (openapi-fetch) percent-encode the value
 * (`guides%2Fintro`); the router decodes each segment, so that addresses the same page.
 */
type MultiSegmentParameter = Omit<ParameterObject, 'in' | 'required'> & { 'x-multi-segment': true };

const MULTI_SEGMENT: Record<string, MultiSegmentParameter> = {
  slug: {
    name: 'slug',
    description:
      'The page slug: 1-20 segments of letters, digits, `-`, `_` and `.` joined by `/` (at most 255 characters; matched case-insensitively). ' +
      'It spans several path segments: send its slashes as they are (`/api/pages/guides/intro`) or percent-encoded (`/api/pages/guides%2Fintro`); both address the same page.',
    schema: { type: 'string', minLength: 1, maxLength: 255, example: 'guides/getting-started' },
    allowReserved: true,
    'x-multi-segment': true,
  },
  key: {
    name: 'key',
    description:
      'The draft key chosen by the client: 1-200 letters, digits, `-`, `_`, `.`, `:` and `/` (case-sensitive). ' +
      'It may span several path segments: send `/` as is or percent-encoded.',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9\\-_.:/]+$',
      example: 'page:guides/intro',
    },
    allowReserved: true,
    'x-multi-segment': true,
  },
};

/** Ids minted by kb (UUIDs); any other value is simply not found. */
function idParameter(name: string): ParameterObject {
  return {
    name,
    in: 'path',
    required: true,
    description: 'The id kb gave the resource (a UUID).',
    schema: { type: 'string', format: 'uuid' },
  };
}

/**
 * The parameters of an OpenAPI path (`/api/pages/{slug}`) served by a Nest route path
 * (`/api/pages/*slug`): wildcards described as multi-segment, `:id` as kb ids.
 */
export function pathParameters(routePath: string): ParameterObject[] {
  const parameters: ParameterObject[] = [];
  for (const [, kind, name] of routePath.matchAll(/([:*])([A-Za-z0-9_]+)/g)) {
    if (kind === '*') {
      const described = MULTI_SEGMENT[name];
      if (!described) throw new Error(`Describe the multi-segment path parameter "${name}"`);
      parameters.push({ ...described, in: 'path', required: true });
    } else {
      parameters.push(idParameter(name));
    }
  }
  return parameters;
}
