import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
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
const TYPE_CONSTRAINTS = new Set([
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isObject',
  'isDate',
  'nestedValidation',
]);

/** One flattened constraint failure; `type` marks a wrong JSON type of a present value. */
interface ClassifiedProblem extends FieldProblem {
  type: boolean;
}

function classify(errors: ValidationError[], parent = ''): ClassifiedProblem[] {
  const problems: ClassifiedProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      // A missing required member also fails its type check: that is a 422, not a type error.
      const type = TYPE_CONSTRAINTS.has(constraint) && error.value !== undefined;
      problems.push({ field, code: constraintCode(constraint), message, type });
    }
    if (error.children?.length) problems.push(...classify(error.children, field));
  }
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
  if (typeErrors.length > 0) {
    return new ClassValidatorTypeProblem(typeErrors.map(plain), problems.map(plain));
  }
  return new FieldProblems(problems.map(plain));
}

function constraintCode(constraint: string): string {
  if (constraint === 'whitelistValidation') return 'unknown_field';
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
      assertFewUnknownMembers(value, metadata.metatype as object);
    }
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
