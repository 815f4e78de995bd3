import { ValidateIf } from 'class-validator';
import { NotNull } from './validation';

/**
 * An optional member that may be left out but not sent as `null`: unlike class-validator's
 * `@IsOptional()` (which skips the rules for `null` too, so a service met `null` where it
 * expected a string), `null` runs the member's rules and fails its type check (400
 * `invalid_type`). Use `@IsOptional()` only where `null` means something (clearing a value).
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/**
 * An optional member that may be left out, whose `null` is a 422 field problem
 * (`null_not_allowed`) like any other bad value rather than a type error: for bodies whose
 * contract says so (webhooks, issue 28).
 */
export function OptionalNotNull(message?: string): PropertyDecorator {
  const decorators = [Optional(), NotNull(message)];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}
