import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { BadRequestProblem, FieldProblem, FieldProblems } from './problem';

/** Flattens class-validator's nested errors into `field` paths such as `variables.name`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      problems.push({ field, code: constraintCode(constraint), message });
    }
    if (error.children?.length) problems.push(...flattenValidationErrors(error.children, field));
  }
  return problems;
}

function constraintCode(constraint: string): string {
  if (constraint === 'whitelistValidation') return 'unknown_field';
  return constraint.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Object, Array, undefined]);

/**
 * The one validation pipe: a body that is not a JSON object is a 400; unknown fields and
 * wrong values are 422 field problems.
 */
class ProblemValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && !PRIMITIVES.has(metadata.metatype)) {
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
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new ProblemValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new FieldProblems(flattenValidationErrors(errors)),
  });
}
