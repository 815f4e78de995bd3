import type { DraftEntity } from './entities/draft.entity';

/** Members the server adds to a draft answer; a PUT body carrying them has them ignored. */
export const DRAFT_SERVER_MEMBERS = ['key', 'size', 'createdAt', 'updatedAt'] as const;

/** A draft as stored: the client's own members, then the server's. */
export interface DraftResponse {
  key: string;
  title: string | null;
  content: string;
  size: number;
  createdAt: string;
  updatedAt: string;
  [member: string]: unknown;
}

export interface DraftSummary {
  key: string;
  title: string | null;
  size: number;
  createdAt: string;
  updatedAt: string;
}

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
