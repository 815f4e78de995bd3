import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Optional } from '../../common/problems/optional';
import { IsSafeText } from '../../common/text/safe-text';

/**
 * Decorators written as they would stand stacked above a property: TypeScript applies a stack
 * bottom up, so they are applied in reverse and the checks (and their errors) keep that order.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** The optional display name of an account: 1-128 characters of safe text. */
export function DisplayNameField(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ maxLength: 128 }),
    Optional(),
    IsString(),
    Length(1, 128),
    IsSafeText(),
  );
}

/** An optional new password: 8-256 characters. */
export function NewPasswordField(description?: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ minLength: 8, maxLength: 256, ...(description ? { description } : {}) }),
    Optional(),
    IsString(),
    Length(8, 256),
  );
}

/** An optional email address (254 characters at most, RFC 5321); `null` clears it. */
export function EmailField(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: 254,
      example: 'ada@example.com',
      description: 'an email address; null clears it',
    }),
    IsOptional(),
    IsString(),
    MaxLength(254),
    IsEmail({}, { message: 'email must be an email address, such as ada@example.com' }),
  );
}
