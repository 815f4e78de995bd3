import { ArrayNotEmpty, IsArray, IsString, ValidateIf, ValidationError } from 'class-validator';
import { FieldProblems, InvalidTypeProblem, Problem } from './problem';
import { OptionalNotNull } from './optional';
import {
  createValidationPipe,
  EachString,
  flattenValidationErrors,
  KeepsOtherMembers,
  malformedAs,
  NotNull,
  problemCode,
  validationProblem,
} from './validation';

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

describe('KeepsOtherMembers', () => {
  @KeepsOtherMembers()
  class OpenBody {
    @IsString()
    content: string;

    [member: string]: unknown;
  }

  const pipe = createValidationPipe();
  const body = { type: 'body', metatype: OpenBody } as const;

  it('validates the declared members and keeps the others as own members', async () => {
    const input = JSON.parse('{"content":"x","tags":["a"],"__proto__":{"polluted":true}}');
    const result = (await pipe.transform(input, body)) as Record<string, unknown>;
    expect(result).toBeInstanceOf(OpenBody);
    expect(Object.keys(result)).toEqual(['content', 'tags', '__proto__']);
    expect(result.tags).toEqual(['a']);
    // `__proto__` stays a member: it does not replace the prototype.
    expect(Object.getPrototypeOf(result)).toBe(OpenBody.prototype);
    expect(result.polluted).toBeUndefined();
  });

  it('still refuses a wrong type of a declared member', async () => {
    await expect(pipe.transform({ content: 3, other: 1 }, body)).rejects.toBeInstanceOf(
      InvalidTypeProblem,
    );
  });
});

describe('constraint contexts (problemCode, malformedAs, EachString)', () => {
  class Selection {
    @ValidateIf((_dto, value) => value !== undefined)
    @IsArray(malformedAs('invalid_items', 'items must be an array.'))
    @ArrayNotEmpty(problemCode('empty', 'Name at least one.'))
    @EachString('An item must be a string.')
    items?: string[];
  }
  const pipe = createValidationPipe();
  const check = (body: unknown) =>
    pipe.transform(body, { type: 'body', metatype: Selection }).then(
      () => 'ok',
      (error: Problem) => ({ status: error.status, code: error.code, ...error.extensions }),
    );

  it('names the field code, answers a wrong type with its own 400, and places item type errors at their index', async () => {
    await expect(check({ items: ['a'] })).resolves.toBe('ok');
    await expect(check({ items: [] })).resolves.toEqual({
      status: 422,
      code: 'validation_failed',
      errors: [{ field: 'items', code: 'empty', message: 'Name at least one.' }],
    });
    await expect(check({ items: 'a' })).resolves.toEqual({ status: 400, code: 'invalid_items' });
    await expect(check({ items: null })).resolves.toEqual({ status: 400, code: 'invalid_items' });
    await expect(check({ items: ['a', 7, 'b', null] })).resolves.toEqual({
      status: 400,
      code: 'invalid_type',
      errors: [
        { field: 'items.1', code: 'not_a_string', message: 'An item must be a string.' },
        { field: 'items.3', code: 'not_a_string', message: 'An item must be a string.' },
      ],
    });
  });
});

describe('NotNull and OptionalNotNull', () => {
  class Hook {
    @NotNull('url must not be null.')
    @IsString()
    url!: string;

    @OptionalNotNull('events must not be null.')
    @IsArray()
    @ArrayNotEmpty()
    events?: string[];
  }
  const pipe = createValidationPipe();
  const check = (body: unknown) =>
    pipe.transform(body, { type: 'body', metatype: Hook }).then(
      () => 'ok',
      (error: Problem) => ({ status: error.status, code: error.code, ...error.extensions }),
    );

  it('answers null as a 422 null_not_allowed alone, leaves absent members to their own rules', async () => {
    await expect(check({ url: 'u' })).resolves.toBe('ok');
    await expect(check({ url: 'u', events: null })).resolves.toEqual({
      status: 422,
      code: 'validation_failed',
      errors: [{ field: 'events', code: 'null_not_allowed', message: 'events must not be null.' }],
    });
    await expect(check({ url: null, events: null })).resolves.toEqual({
      status: 422,
      code: 'validation_failed',
      errors: [
        { field: 'url', code: 'null_not_allowed', message: 'url must not be null.' },
        { field: 'events', code: 'null_not_allowed', message: 'events must not be null.' },
      ],
    });
    // A wrong type is still the 400 it always was.
    await expect(check({ url: 'u', events: 'x' })).resolves.toEqual(
      expect.objectContaining({ status: 400, code: 'invalid_type' }),
    );
    await expect(check({})).resolves.toEqual(
      expect.objectContaining({ status: 422, code: 'validation_failed' }),
    );
  });
});
