import { ValidationError } from 'class-validator';
import { flattenValidationErrors } from './validation';

function error(
  property: string,
  constraints: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError {
  return Object.assign(new ValidationError(), { property, constraints, children });
}

describe('flattenValidationErrors', () => {
  it('turns nested class-validator errors into dotted field paths with snake_case codes', () => {
    const errors = [
      error('name', { isString: 'name must be a string' }),
      error('extra', { whitelistValidation: 'property extra should not exist' }),
      error('variables', {}, [error('customer_name', { maxLength: 'too long' })]),
    ];
    expect(flattenValidationErrors(errors)).toEqual([
      { field: 'name', code: 'is_string', message: 'name must be a string' },
      { field: 'extra', code: 'unknown_field', message: 'property extra should not exist' },
      { field: 'variables.customer_name', code: 'max_length', message: 'too long' },
    ]);
  });
});
