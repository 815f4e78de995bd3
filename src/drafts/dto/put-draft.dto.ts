import { IsOptional, IsString, MaxLength, registerDecorator } from 'class-validator';
import { KeepsOtherMembers } from '../../common/problems/validation';
import { DRAFT_TITLE_MAX_LENGTH, isDraftKey, KEY_RULE } from '../draft-rules';

/** class-validator rule for a draft key (code `invalid_key`, a 422 field problem). */
function IsDraftKey(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'invalidKey',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: KEY_RULE },
      validator: { validate: (value: unknown) => typeof value === 'string' && isDraftKey(value) },
    });
  };
}

/**
 * `PUT /api/drafts/{key}`: a string `content` and an optional `title`; any other members are
 * the editor's own and are kept as they are (the server's members are dropped by the service).
 * `key` is the path's, copied in by DraftKeyInBody so one 422 lists its problem with the
 * body's; a `key` the client sent is a server member and ignored.
 */
@KeepsOtherMembers()
export class PutDraftBody {
  @IsDraftKey()
  key: string;

  @IsString({ message: 'content must be a string.' })
  content: string;

  @IsOptional()
  @IsString({ message: 'title must be a string.' })
  @MaxLength(DRAFT_TITLE_MAX_LENGTH, {
    message: `title must be at most ${DRAFT_TITLE_MAX_LENGTH} characters.`,
  })
  title?: string | null;

  [member: string]: unknown;
}
