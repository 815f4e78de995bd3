import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { CreatePageDto, UpdatePageDto } from './page.dto';

/**
 * Members a page read answers that a write cannot set. A client may send a page back as it read
 * it (plus `baseRevision`): these members are accepted with any value and ignored, while other
 * unknown members stay 422 `unknown_field`.
 */
export const READ_ONLY_PAGE_MEMBERS = [
  'revision',
  'createdAt',
  'updatedAt',
  'updatedBy',
  'html',
  'backlinks',
] as const;

type ReadOnlyMember = (typeof READ_ONLY_PAGE_MEMBERS)[number];

const IGNORED = { readOnly: true, description: 'answered by reads; ignored in a request' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T> = new (...args: any[]) => T;

function withReadOnlyMembers<T extends Constructor<object>>(Base: T) {
  class WithReadOnlyMembers extends Base {
    @ApiPropertyOptional({ ...IGNORED, type: Number })
    @Allow()
    revision?: unknown;

    @ApiPropertyOptional({ ...IGNORED, type: String, format: 'date-time' })
    @Allow()
    createdAt?: unknown;

    @ApiPropertyOptional({ ...IGNORED, type: String, format: 'date-time' })
    @Allow()
    updatedAt?: unknown;

    @ApiPropertyOptional({ ...IGNORED, type: String, nullable: true })
    @Allow()
    updatedBy?: unknown;

    @ApiPropertyOptional({ ...IGNORED, type: String })
    @Allow()
    html?: unknown;

    @ApiPropertyOptional({ ...IGNORED, type: 'array', items: { type: 'object' } })
    @Allow()
    backlinks?: unknown;
  }
  return WithReadOnlyMembers;
}

/** `POST /api/pages`: the page fields, plus the read-only members of a page read (ignored). */
export class CreatePageBody extends withReadOnlyMembers(CreatePageDto) {}

/** `PUT /api/pages/{slug}`: the page fields and `baseRevision`, plus read-only members (ignored). */
export class UpdatePageBody extends withReadOnlyMembers(UpdatePageDto) {}

/** The body without the read-only members, whatever they held. */
export function withoutReadOnlyMembers<T extends object>(body: T): Omit<T, ReadOnlyMember> {
  const copy = { ...body } as Record<string, unknown>;
  for (const member of READ_ONLY_PAGE_MEMBERS) delete copy[member];
  return copy as Omit<T, ReadOnlyMember>;
}
