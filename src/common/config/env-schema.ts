import 'reflect-metadata';
import { ValidateBy, ValidationError, validateSync } from 'class-validator';
import { ConfigError, Env, str } from './env-values';

/**
 * The machinery of the configuration schema (docs/configuration.md): a settings group is a class
 * whose properties are bound to environment variables with `@Env` and checked with class-validator
 * decorators; `readGroup` reads the text, turns it into the declared kind, validates, and throws a
 * ConfigError naming the first bad variable.
 */

/** How a variable's text is read before it is validated. */
export type EnvKind = 'string' | 'int' | 'bool' | 'list';

interface EnvField {
  property: string;
  variable: string;
  kind: EnvKind;
}

const FIELDS = new WeakMap<object, EnvField[]>();

/**
 * Binds a property to the environment variable `variable`. Unset or blank keeps the property's
 * initial value (its default). `int` takes digits only, `bool` only true/false, `list` splits at
 * commas; any other text is kept as it came so the validators refuse it with its value.
 */
export function Env(variable: string, kind: EnvKind = 'string'): PropertyDecorator {
  return (target, property) => {
    const fields = FIELDS.get(target.constructor) ?? [];
    fields.push({ property: String(property), variable, kind });
    FIELDS.set(target.constructor, fields);
  };
}

/**
 * A rule for one setting: `check` returns what is wrong (the message after the variable's name)
 * or undefined. It sees the whole group, for rules between settings (required with another).
 */
export function Rule<V, G>(
  check: (value: V, group: G) => string | undefined,
  name = 'kbRule',
): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: V, args) => check(value, args?.object as G) === undefined,
      defaultMessage: (args) => check(args?.value as V, args?.object as G) ?? '',
    },
  });
}

/** A whole number in [min, max]. */
export function IntRange(min: number, max: number): PropertyDecorator {
  return Rule((value: unknown) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number') return `must be a whole number, got "${value}"`;
    if (value < min || value > max) return `must be between ${min} and ${max}, got ${value}`;
    return undefined;
  }, 'kbIntRange');
}

export function OneOf(values: readonly string[]): PropertyDecorator {
  return Rule(
    (value?: string) =>
      value === undefined || values.includes(value)
        ? undefined
        : `must be one of ${values.join(', ')}, got "${value}"`,
    'kbOneOf',
  );
}

export function IsBool(): PropertyDecorator {
  return Rule(
    (value: unknown) =>
      value === undefined || typeof value === 'boolean'
        ? undefined
        : `must be true or false, got "${value}"`,
    'kbBool',
  );
}

/** What is wrong with `raw` as a URL of one of `protocols`, or undefined. */
export function urlProblem(raw: string, protocols: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return `must be a URL, got "${raw}"`;
  }
  return protocols.includes(parsed.protocol)
    ? undefined
    : `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`;
}

/** An optional URL (or, for a `list` variable, every URL of the list) of one of `protocols`. */
export function IsUrlOf(protocols: readonly string[]): PropertyDecorator {
  return Rule((value: string | string[] | undefined) => {
    if (value === undefined) return undefined;
    for (const item of Array.isArray(value) ? value : [value]) {
      const problem = urlProblem(item, protocols);
      if (problem) return problem;
    }
    return undefined;
  }, 'kbUrl');
}

function readText(kind: EnvKind, raw: string): unknown {
  switch (kind) {
    case 'int':
      return /^\d+$/.test(raw) ? Number(raw) : raw;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

function firstMessage(error: ValidationError): string {
  return Object.values(error.constraints ?? {})[0] ?? 'is not valid';
}

/**
 * Reads one settings group from the environment and validates it; throws ConfigError naming the
 * first bad variable, in the order the class declares them.
 */
export function readGroup<G extends object>(Group: new () => G, env: Env): G {
  const group = new Group();
  const fields = FIELDS.get(Group) ?? [];
  for (const field of fields) {
    const raw = str(env, field.variable);
    if (raw !== undefined) {
      (group as Record<string, unknown>)[field.property] = readText(field.kind, raw);
    }
  }
  const errors = validateSync(group, { stopAtFirstError: true, forbidUnknownValues: false });
  for (const field of fields) {
    const error = errors.find((e) => e.property === field.property);
    if (error) throw new ConfigError(field.variable, firstMessage(error));
  }
  if (errors.length > 0) {
    throw new Error(`${Group.name}.${errors[0].property} has a rule but no @Env variable`);
  }
  return group;
}
