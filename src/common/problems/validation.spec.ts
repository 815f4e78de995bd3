import { ValidationError } from 'class-validator';
import { FieldProblems, InvalidTypeProblem } from './problem';
import { flattenValidationErrors, validationProblem } from './validation';

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

describe('validationProblem', () => {
  const withValue = (e: ValidationError, value: unknown) => Object.assign(e, { value });

  it('answers 400 invalid_type listing only the type violations of present values', () => {
    const result = validationProblem([
      withValue(error('title', { isString: 'title must be a string' }), 123),
      withValue(error('tags', { arrayMaxSize: 'too many', isArray: 'tags must be an array' }), 'a'),
      withValue(error('extra', { whitelistValidation: 'property extra should not exist' }), 1),
    ]);
    expect(result).toBeInstanceOf(InvalidTypeProblem);
    expect(result.status).toBe(400);
    expect(result.code).toBe('invalid_type');
    expect(result.extensions).toEqual({
      errors: [
        { field: 'title', code: 'is_string', message: 'title must be a string' },
        { field: 'tags', code: 'is_array', message: 'tags must be an array' },
      ],
    });
  });

  it('answers 422 for value rules, unknown fields and missing members', () => {
    const result = validationProblem([
      withValue(error('slug', { isString: 'slug must be a string' }), undefined),
      withValue(error('lifecycle', { isIn: 'lifecycle must be one of' }), 'gone'),
    ]);
    expect(result).toBeInstanceOf(FieldProblems);
    expect(result.status).toBe(422);
    expect(result.extensions).toEqual({
      errors: [
        { field: 'slug', code: 'is_string', message: 'slug must be a string' },
        { field: 'lifecycle', code: 'is_in', message: 'lifecycle must be one of' },
      ],
    });
  });
});
