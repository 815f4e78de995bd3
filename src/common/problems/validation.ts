import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidateBy, ValidationOptions } from 'class-validator';
import {
  BadRequestProblem,
  FieldProblem,
  FieldProblems,
  InvalidTypeProblem,
  MAX_FIELD_PROBLEMS,
  Problem,
} from './problem';

/**
 * class-validator constraints that check a value's JSON type. A present value that fails one
 * is malformed syntax (400 `invalid_type`); every other constraint (length, range, pattern,
 * allowed values, unknown fields) is a semantic problem (422 `validation_failed`).
 */
const EACH_STRING = 'eachString';
const NOT_NULL = 'notNull';

const TYPE_CONSTRAINTS = new Set([
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isObject',
  'isDate',
  'nestedValidation',
  EACH_STRING,
]);

/** What a constraint's `context` says about the problem it makes (see problemCode, malformedAs). */
interface ConstraintContext {
  /** The field problem's code instead of the constraint's name. */
  code?: string;
  /** A wrong JSON type answered as this 400 problem alone (no field list). */
  malformed?: string;
}

/** A constraint whose field problem has this code: `@ArrayNotEmpty(problemCode('empty'))`. */
export function problemCode(code: string, message?: string): ValidationOptions {
  return { context: { code } satisfies ConstraintContext, ...(message ? { message } : {}) };
}

/**
 * A type constraint whose failure is the 400 problem `code` with `message` as its detail,
 * instead of `invalid_type` with a field list: `@IsObject(malformedAs('invalid_variables', …))`.
 */
export function malformedAs(code: string, message: string): ValidationOptions {
  return { context: { malformed: code } satisfies ConstraintContext, message };
}

/**
 * Every item of an array member is a string; each other item is a 400 type problem of its
 * own, at its index (`slugs.1`, code `not_a_string`). Not an array: left to `@IsArray()`.
 */
export function EachString(message = 'Each item must be a string.'): PropertyDecorator {
  return ValidateBy({
    name: EACH_STRING,
    validator: {
      validate: (value: unknown) =>
        !Array.isArray(value) || value.every((item) => typeof item === 'string'),
      defaultMessage: () => message,
    },
  });
}

/**
 * A member that must not be `null`: a `null` is the 422 field problem `null_not_allowed` alone
 * (the member's other rules, its type check included, are not reported for it). For members
 * where `null` neither clears nor means anything else; absent members are left to
 * `@IsOptional()`/`Optional()` or to the required member's own rules.
 */
export function NotNull(
  message = 'This member may be left out but must not be null.',
): PropertyDecorator {
  return ValidateBy({
    name: NOT_NULL,
    validator: {
      validate: (value: unknown) => value !== null,
      defaultMessage: () => message,
    },
  });
}

/** One flattened constraint failure; `type` marks a wrong JSON type of a present value. */
interface ClassifiedProblem extends FieldProblem {
  type: boolean;
  malformed?: string;
}

function classify(errors: ValidationError[], parent = ''): ClassifiedProblem[] {
  const problems: ClassifiedProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    let constraints = Object.entries(error.constraints ?? {});
    if (error.value === null && constraints.some(([name]) => name === NOT_NULL))
      constraints = constraints.filter(([name]) => name === NOT_NULL);
    for (const [constraint, message] of constraints) {
      // A missing required member also fails its type check: that is a 422, not a type error.
      const type = TYPE_CONSTRAINTS.has(constraint) && error.value !== undefined;
      const context = (error.contexts?.[constraint] ?? {}) as ConstraintContext;
      if (constraint === EACH_STRING && Array.isArray(error.value)) {
        problems.push(...badItems(error.value as unknown[], field, message));
        continue;
      }
      const code = context.code ?? constraintCode(constraint);
      problems.push({ field, code, message, type, malformed: context.malformed });
    }
    if (error.children?.length) problems.push(...classify(error.children, field));
  }
  return problems;
}

function badItems(items: unknown[], field: string, message: string): ClassifiedProblem[] {
  const problems: ClassifiedProblem[] = [];
  items.forEach((item, index) => {
    if (typeof item !== 'string')
      problems.push({ field: `${field}.${index}`, code: 'not_a_string', message, type: true });
  });
  return problems;
}

/** Flattens class-validator's nested errors into `field` paths such as `variables.name`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  return classify(errors, parent).map(plain);
}

/** A type problem that keeps every field problem, for inputs that have no JSON types. */
class ClassValidatorTypeProblem extends InvalidTypeProblem {
  constructor(
    errors: FieldProblem[],
    readonly all: FieldProblem[],
  ) {
    super(errors);
  }
}

const plain = ({ field, code, message }: FieldProblem): FieldProblem => ({ field, code, message });

/**
 * The problem for class-validator's errors: 400 `invalid_type` listing only the type violations
 * when any value has the wrong JSON type (other complaints about such a value, say an array
 * size of a string, are noise); otherwise 422 with every field problem.
 */
export function validationProblem(errors: ValidationError[]): Problem {
  const problems = classify(errors);
  const typeErrors = problems.filter((p) => p.type);
  const malformed = typeErrors.find((p) => p.malformed);
  if (malformed?.malformed) return new BadRequestProblem(malformed.malformed, malformed.message);
  if (typeErrors.length > 0) {
    return new ClassValidatorTypeProblem(typeErrors.map(plain), problems.map(plain));
  }
  return new FieldProblems(problems.map(plain));
}

function constraintCode(constraint: string): string {
  if (constraint === 'whitelistValidation') return 'unknown_field';
  if (constraint === NOT_NULL) return 'null_not_allowed';
  return constraint.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Object, Array, undefined]);

const knownMembers = new WeakMap<object, Set<string>>();

/** The members a DTO class declares (with its parents'), from class-validator's metadata. */
function membersOf(metatype: object): Set<string> {
  let members = knownMembers.get(metatype);
  if (!members) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(
      metatype as new () => object,
      '',
      true,
      false,
    );
    members = new Set(metadata.map((m) => m.propertyName));
    knownMembers.set(metatype, members);
  }
  return members;
}

/**
 * More unknown members than a problem lists: answered in one linear pass, before
 * class-validator (whose cost per unknown member is high) sees them.
 */
function assertFewUnknownMembers(body: object, metatype: object): void {
  const members = membersOf(metatype);
  const problems: FieldProblem[] = [];
  let unknown = 0;
  for (const key of Object.keys(body)) {
    if (members.has(key)) continue;
    if (++unknown <= MAX_FIELD_PROBLEMS)
      problems.push({
        field: key,
        code: 'unknown_field',
        message: `property ${key} should not exist`,
      });
  }
  if (unknown > MAX_FIELD_PROBLEMS) {
    throw new FieldProblems(problems, undefined, unknown - MAX_FIELD_PROBLEMS);
  }
}

const omittableBodies = new WeakSet<object>();

/**
 * Marks a body class whose members are all optional: a request with no body at all is read as
 * `{}` (a body that is there must still be a JSON object).
 */
export function BodyMayBeOmitted(): ClassDecorator {
  return (target) => void omittableBodies.add(target);
}

const openBodies = new WeakSet<object>();

/**
 * Marks a body class that keeps members it does not declare (a draft keeps its editor's own
 * state): the declared members are validated as usual, the others pass through unchecked.
 */
export function KeepsOtherMembers(): ClassDecorator {
  return (target) => void openBodies.add(target);
}

/** Splits a body into its declared members and the rest (defined as own data, so `__proto__` stays a member). */
function splitMembers(body: object, metatype: object): [object, Record<string, unknown>] {
  const members = membersOf(metatype);
  const declared: Record<string, unknown> = {};
  const others: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    Object.defineProperty(members.has(name) ? declared : others, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return [declared, others];
}

/**
 * The one validation pipe: a body that is not a JSON object, or a member of the wrong JSON
 * type, is a 400; unknown fields and wrong values are 422 field problems.
 */
class ProblemValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && !PRIMITIVES.has(metadata.metatype)) {
      if (value === undefined && omittableBodies.has(metadata.metatype as object)) value = {};
      if (
        value === undefined ||
        value === null ||
        typeof value !== 'object' ||
        Array.isArray(value)
      ) {
        throw new BadRequestProblem(
          'invalid_body',
          'The request body must be a JSON object (Content-Type: application/json).',
        );
      }
      if (openBodies.has(metadata.metatype as object)) {
        const [declared, others] = splitMembers(value, metadata.metatype as object);
        return Object.defineProperties(
          (await this.check(declared, metadata)) as object,
          Object.getOwnPropertyDescriptors(others),
        );
      }
      assertFewUnknownMembers(value, metadata.metatype as object);
    }
    return this.check(value, metadata);
  }

  private async check(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      // Query strings and path parameters have no JSON types (a repeated parameter is an
      // array): their problems are all 422.
      if (error instanceof ClassValidatorTypeProblem && metadata.type !== 'body') {
        throw new FieldProblems(error.all);
      }
      throw error;
    }
  }
}

export function createValidationPipe(): ValidationPipe {
  return new ProblemValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => validationProblem(errors),
  });
}
