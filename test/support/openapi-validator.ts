import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

/** One validated answer: which operation answered which status. */
export interface ValidatedAnswer {
  operationId: string;
  status: number;
}

/**
 * Turns an OpenAPI 3.0 schema into JSON Schema for ajv, read as clients read it: `nullable`
 * also admits null, and an object that lists its `properties` and says nothing about others
 * admits no others (so a member the description misses fails the check). Refs point into
 * the document registered as `kb`.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, example: _example, ...rest } = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = `kb${value}`;
    else if (key === 'properties' || key === 'components' || key === 'schemas')
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, schema]) => [name, toJsonSchema(schema)]),
      );
    else out[key] = toJsonSchema(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Checks real answers against the document: the status is one the operation describes, the
 * media type one that status describes, and a JSON body matches its schema.
 */
export class OpenApiValidator {
  readonly answers: ValidatedAnswer[] = [];
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: 'kb', components: toJsonSchema(document.components) as Json });
  }

  /** An openapi-fetch middleware that checks every answer (and throws when one is wrong). */
  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        await this.check(request.method, schemaPath, response.clone());
      },
    };
  }

  async check(method: string, path: string, response: Response): Promise<void> {
    const where = `${method} ${path} → ${response.status}`;
    const operation = this.document.paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) throw new Error(`${where}: the document has no such operation`);
    const responses = operation.responses as Record<string, Json>;
    let described = responses[String(response.status)] ?? responses.default;
    if (!described) throw new Error(`${where}: status not described`);
    if (typeof described.$ref === 'string')
      described = this.document.components.responses[described.$ref.split('/').pop()!];
    const body = Buffer.from(await response.arrayBuffer());
    const content = described.content as Record<string, { schema?: unknown }> | undefined;
    this.answers.push({ operationId: String(operation.operationId), status: response.status });
    if (!content) {
      if (body.length > 0) throw new Error(`${where}: a body where none is described`);
      return;
    }
    const type = mediaType(response.headers.get('content-type'));
    const media = content[type] ?? content['*/*'];
    if (!media)
      throw new Error(`${where}: ${type} is not one of ${Object.keys(content).join(', ')}`);
    if (!type.endsWith('json')) return;
    const validate = this.validator(media.schema);
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (!validate(value))
      throw new Error(
        `${where}: the body does not match the document:\n${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(value, null, 2).slice(0, 2000)}`,
      );
  }

  private validator(schema: unknown): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
