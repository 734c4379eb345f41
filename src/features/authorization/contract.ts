/** The authorization-code flow: client_info, authorize, exchange (docs/api.md §5.3, §5.3–5.5). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';
import { TokenEnvelope } from '../sessions/contract.js';

export const ClientInfoBody = Type.Object({
  client_id: Str(),
  redirect_uri: Str(),
});

/** `data` of client_info: no secret, no whitelist. */
export const ClientInfo = View({
  client_id: Type.String(),
  display_name: Type.String(),
  homepage: Type.String(),
  scopes: Type.Array(Type.String()),
  redirect_ok: Type.Boolean(),
  client_type: Type.String(),
  pkce_required: Type.Boolean(),
});
export type ClientInfo = Static<typeof ClientInfo>;
export const ClientInfoReply = DataEnvelope(ClientInfo);

export const AuthorizeBody = Type.Object({
  client_id: Str(),
  redirect_uri: Str(),
  state: Type.Optional(Str(4096)),
  scope: Type.Optional(Str(2048)),
  code_challenge: Type.Optional(Str(256)),
  code_challenge_method: Type.Optional(Str(32)),
});
export type AuthorizeBody = Static<typeof AuthorizeBody>;

export const IssuedCode = View({
  code: Type.String(),
  redirect_url: Type.String(),
  expires_in: Type.Integer(),
});
export type IssuedCode = Static<typeof IssuedCode>;
export const IssuedCodeReply = DataEnvelope(IssuedCode);

/** Nothing is required by the schema: a missing field gets the msg of docs/api.md §1.9. */
export const ExchangeBody = Type.Object({
  client_id: Type.Optional(Str()),
  code: Type.Optional(Str()),
  client_secret: Type.Optional(Str()),
  code_verifier: Type.Optional(Str()),
  redirect_uri: Type.Optional(Str()),
});
export type ExchangeBody = Static<typeof ExchangeBody>;

/** The token envelope plus the granted scope. */
export const ExchangeReply = View({
  ...TokenEnvelope.properties,
  scope: Type.String(),
});
export type ExchangeReply = Static<typeof ExchangeReply>;
