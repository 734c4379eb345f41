/**
 * JSON shapes of the token side's answers, declared once with TypeBox: the routes serialise
 * their successes with them and the services return their static types.
 */
import { Type, type Static } from '@sinclair/typebox';

/** RFC 6749 §5.1 (and OIDC Core §3.1.3.3 for `id_token`). */
export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.String(),
    refresh_token: Type.Optional(Type.String()),
    id_token: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type TokenResponse = Static<typeof TokenResponse>;

/** RFC 6749 §5.2. */
export const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { additionalProperties: false },
);
export type OAuthErrorBody = Static<typeof OAuthErrorBody>;

/** RFC 8628 §3.2. */
export const DeviceAuthorizationResponse = Type.Object(
  {
    device_code: Type.String(),
    user_code: Type.String(),
    verification_uri: Type.String(),
    verification_uri_complete: Type.String(),
    expires_in: Type.Integer(),
    interval: Type.Integer(),
  },
  { additionalProperties: false },
);
export type DeviceAuthorizationResponse = Static<
  typeof DeviceAuthorizationResponse
>;

/** OIDC Core §5.3.2: `sub` always, the other claims by scope. */
export const UserInfoResponse = Type.Object(
  {
    sub: Type.String(),
    preferred_username: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.Integer()),
    email: Type.Optional(Type.String()),
    email_verified: Type.Optional(Type.Boolean()),
    // With scope `roles`: the roles the person holds now.
    roles: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type UserInfoResponse = Static<typeof UserInfoResponse>;

/** RFC 7662 §2.2: `active`, and for a live token what it is, whose, for whom and until when. */
export const IntrospectionResponse = Type.Object(
  {
    active: Type.Boolean(),
    scope: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    sub: Type.Optional(Type.String()),
    aud: Type.Optional(Type.String()),
    iss: Type.Optional(Type.String()),
    jti: Type.Optional(Type.String()),
    // With scope `roles`: the roles the person holds now.
    roles: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type IntrospectionResponse = Static<typeof IntrospectionResponse>;
