/**
 * Building blocks of the wire contracts. Each TypeBox object is at once the JSON schema
 * Fastify validates and serialises with (and /docs shows) and, through `Static`, the
 * TypeScript type of the request or response.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** A string field; length rules with their own msg live in the domain, not here (body size caps it). */
export const Str = (maxLength?: number) =>
  maxLength === undefined ? Type.String() : Type.String({ maxLength });
export const StrList = (maxItems = 20, maxLength = 2048, minItems?: number) =>
  Type.Array(Type.String({ maxLength }), {
    maxItems,
    ...(minItems !== undefined && { minItems }),
  });

/** `{ ok: false, msg }`: every 4xx/5xx answer (docs/api.md §1). */
export const Failure = Type.Object({ ok: Type.Boolean(), msg: Type.String() });

/** `{ ok: true, data }` around one success shape. */
export const DataEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ ok: Type.Literal(true), data });

/** Responses of a route: the success shape plus the failure envelope for every 4xx/5xx. */
export const responses = <T extends TSchema>(success: T) => ({
  200: success,
  '4xx': Failure,
  '5xx': Failure,
});

/** Closed objects: a view field the schema does not know fails the type check of the view. */
export const View = <P extends Parameters<typeof Type.Object>[0]>(
  properties: P,
) => Type.Object(properties, { additionalProperties: false });

/** `{ ok: true, data: {} }`: a success with nothing to return. */
export const EmptyReply = DataEnvelope(View({}));

/** `page` of a listing: 1 when absent or empty, else a whole number from 1 to 1 000 000. */
export const PageParam = Type.Optional(
  Type.String({ pattern: '^(0*[1-9][0-9]{0,5}|0*1000000|)$' }),
);
export const pageNumber = (page: string | undefined): number =>
  page ? Number(page) : 1;
