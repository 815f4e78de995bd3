import type { DraftResponse, DraftSummary } from './dto/draft-response.dto';
import type { DraftEntity } from './entities/draft.entity';

/** Members the server adds to a draft answer; a PUT body carrying them has them ignored. */
export const DRAFT_SERVER_MEMBERS = ['key', 'size', 'createdAt', 'updatedAt'] as const;

// The response shapes (and their OpenAPI schemas) are in dto/draft-response.dto.ts.
export type { DraftResponse, DraftSummary } from './dto/draft-response.dto';

export function toDraftResponse(draft: DraftEntity): DraftResponse {
  return {
    ...draft.document,
    key: draft.key,
    title: draft.title,
    content: String(draft.document.content ?? ''),
    size: draft.size,
    createdAt: draft.createdAt.toISOString(),
    updatedAt: draft.updatedAt.toISOString(),
  };
}

export function toDraftSummary(draft: DraftEntity): DraftSummary {
  return {
    key: draft.key,
    title: draft.title,
    size: draft.size,
    createdAt: draft.createdAt.toISOString(),
    updatedAt: draft.updatedAt.toISOString(),
  };
}
