/** JSON-schema building blocks for route validation, response serialisation and /docs. */

/** A string field; length rules with their own msg live in the domain, not here (body size caps it). */
export const str = (maxLength?: number) => (maxLength === undefined ? { type: 'string' as const } : { type: 'string' as const, maxLength });
export const bool = { type: 'boolean' } as const;
export const strList = (maxItems = 20, maxLength = 2048) => ({ type: 'array', maxItems, items: { type: 'string', maxLength } }) as const;

/** A request body: an object whose listed fields have these types; other keys are ignored. */
export function body(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required } as const;
}

export const userSchema = {
  type: 'object',
  properties: {
    uid: { type: 'integer' }, username: { type: 'string' }, display_name: { type: 'string' },
    email: { type: 'string' }, roles: { type: 'array', items: { type: 'string' } },
  },
  required: ['uid', 'username', 'display_name', 'email', 'roles'],
  additionalProperties: false,
} as const;

export const tokenEnvelopeSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' }, access_token: { type: 'string' }, token_type: { type: 'string' },
    expires_in: { type: 'integer' }, user: userSchema,
  },
  required: ['ok', 'access_token', 'token_type', 'expires_in', 'user'],
} as const;

export const failureSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, msg: { type: 'string' } },
  required: ['ok', 'msg'],
} as const;

export function dataEnvelope(data: Record<string, unknown>) {
  return { type: 'object', properties: { ok: { type: 'boolean' }, data }, required: ['ok', 'data'] } as const;
}

/** Responses of a route: the success shape plus the failure envelope for every 4xx/5xx. */
export function responses(success: unknown) {
  return { 200: success, '4xx': failureSchema, '5xx': failureSchema };
}
