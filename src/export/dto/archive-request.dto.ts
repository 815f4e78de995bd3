import { ArrayMaxSize, ArrayNotEmpty, IsArray, ValidateIf } from 'class-validator';
import {
  BodyMayBeOmitted,
  EachString,
  malformedAs,
  problemCode,
} from '../../common/problems/validation';

export const MAX_SELECTED_SLUGS = 10_000;

/**
 * The body of POST /api/export/archive: `{"slugs": [...]}`, or nothing / `{}` for every page.
 * Whether each slug names a live page the caller sees is the service's check (422 per slug).
 */
@BodyMayBeOmitted()
export class ArchiveRequestDto {
  @ValidateIf((_dto, value) => value !== undefined)
  @IsArray(malformedAs('invalid_slugs', '"slugs" must be an array of page slugs.'))
  @ArrayNotEmpty(
    problemCode('empty', 'Name at least one page, or leave "slugs" out to export all pages.'),
  )
  @ArrayMaxSize(
    MAX_SELECTED_SLUGS,
    problemCode(
      'too_many',
      `At most ${MAX_SELECTED_SLUGS} slugs; leave "slugs" out to export all pages.`,
    ),
  )
  @EachString('A slug must be a string.')
  slugs?: string[];
}
