import { SetMetadata } from '@nestjs/common';
import type { ApiResultMetadata } from './api-result.decorator';

export const API_ALIAS_KEY = 'kb:apiAlias';

export interface ApiAliasMetadata {
  /** The OpenAPI path, such as `/api/pages/{slug}/raw`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  result: ApiResultMetadata;
}

/**
 * Describes a second path a wildcard GET route also serves, with its own success answer (the
 * same parameters, security and errors). `x-kb-route` names the route behind both.
 */
export const ApiAlias = (alias: ApiAliasMetadata): MethodDecorator =>
  SetMetadata(API_ALIAS_KEY, alias);
