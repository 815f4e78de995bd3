import { IsObject, ValidateIf } from 'class-validator';
import { BodyMayBeOmitted, malformedAs } from '../../common/problems/validation';

/**
 * The body of POST /export/preview and /export/pdf: `{"variables": {"name": "value"}}`, or
 * nothing / `{}` for the saved values. `variables` not an object is 400 `invalid_variables`;
 * the names and values are checked against the page (PrintService), one 422 problem per name.
 */
@BodyMayBeOmitted()
export class PrintOverridesDto {
  @ValidateIf((_dto, value) => value !== undefined)
  @IsObject(
    malformedAs('invalid_variables', '"variables" must be a JSON object of name: string value.'),
  )
  variables?: Record<string, unknown>;
}
