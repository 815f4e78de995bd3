/** Expected problem documents, compared as whole bodies (the request id varies). */
export function problem(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: `urn:kb:problem:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.stringMatching(/^\//),
    code,
    requestId: expect.any(String),
    ...extra,
  };
}

export function fieldErrors(...errors: { field: string; code: string }[]): Record<string, unknown> {
  return problem(422, 'validation_failed', {
    errors: expect.arrayContaining(errors.map((e) => expect.objectContaining(e))),
  });
}

export const PROBLEM_CONTENT_TYPE = /^application\/problem\+json/;

/** The exact 422 body with exactly these field problems, in this order. */
export function validationProblem(
  ...errors: { field: string; code: string; message: string }[]
): Record<string, unknown> {
  return problem(422, 'validation_failed', { errors });
}
