/** Names of response classes whose objects may carry members of the client's own. */
export const OPEN_SCHEMAS = new Set<string>();

/**
 * Marks a response class whose objects keep members the client stored (a draft keeps any
 * member of the document it was sent): its schema gets `additionalProperties: true`.
 */
export function OpenSchema(): ClassDecorator {
  return (target) => {
    OPEN_SCHEMAS.add(target.name);
  };
}
