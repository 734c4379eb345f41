/**
 * JSON shapes of the pages' OIDC helpers, declared once with TypeBox: the routes validate and
 * serialise with them, and the page bundle imports their types (type-only, no runtime code).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope } from '../../platform/http/contract.js';

const TICKET = Type.String({ minLength: 1, maxLength: 16_384 });

export const TicketBody = Type.Object({ ticket: TICKET });
export const ConsentBody = Type.Object({
  ticket: TICKET,
  decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
});

export const InteractionView = Type.Object(
  {
    client_id: Type.String(),
    display_name: Type.String(),
    homepage: Type.String(),
    scopes: Type.Array(Type.String()),
    redirect_uri: Type.String(),
    user: Type.Object({ username: Type.String(), display_name: Type.String() }),
  },
  { additionalProperties: false },
);
export type InteractionView = Static<typeof InteractionView>;

export const ConsentResult = Type.Object(
  { redirect_to: Type.String() },
  { additionalProperties: false },
);
export type ConsentResult = Static<typeof ConsentResult>;

/** One entry of `/account`'s authorized apps: times in unix seconds like the rest of the API. */
export const AuthorizedApp = Type.Object(
  {
    client_id: Type.String(),
    display_name: Type.String(),
    homepage: Type.String(),
    scopes: Type.Array(Type.String()),
    granted_at: Type.Integer(),
    updated_at: Type.Integer(),
  },
  { additionalProperties: false },
);
export type AuthorizedApp = Static<typeof AuthorizedApp>;

export const AuthorizedAppList = Type.Object(
  { apps: Type.Array(AuthorizedApp) },
  { additionalProperties: false },
);
export type AuthorizedAppList = Static<typeof AuthorizedAppList>;

export const RevokeAppBody = Type.Object({
  client_id: Type.String({ minLength: 1, maxLength: 256 }),
});

/** Replies of the pages' helpers, in the v1 API's envelope. */
export const InteractionReply = DataEnvelope(InteractionView);
export const ConsentReply = DataEnvelope(ConsentResult);
export const AuthorizedAppListReply = DataEnvelope(AuthorizedAppList);
