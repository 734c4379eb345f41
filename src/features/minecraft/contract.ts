/** Minecraft profiles on the account API (docs/api.md §18.2) and the Yggdrasil API's request bodies (§18.3). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';

export const ProfileSummary = View({ id: Type.String(), name: Type.String() });
export type ProfileSummary = Static<typeof ProfileSummary>;

const SkinView = View({
  url: Type.String(),
  model: Type.Union([Type.Literal('default'), Type.Literal('slim')]),
});
const CapeView = View({ url: Type.String() });
/** A profile with its textures, for the /account section's preview. */
export const ProfileDetail = View({
  id: Type.String(),
  name: Type.String(),
  skin: Type.Union([SkinView, Type.Null()]),
  cape: Type.Union([CapeView, Type.Null()]),
});
export type ProfileDetail = Static<typeof ProfileDetail>;

export const ProfileListReply = DataEnvelope(
  View({ profiles: Type.Array(ProfileSummary) }),
);
export const ProfileReply = DataEnvelope(ProfileSummary);
export const ProfileDetailReply = DataEnvelope(ProfileDetail);
export const AdminProfilesReply = DataEnvelope(
  View({ profiles: Type.Array(ProfileDetail) }),
);

export const ProfileCreateBody = Type.Object({ name: Str(64) });
export const ProfileRenameBody = Type.Object({ id: Str(64), name: Str(64) });
export const ProfileIdBody = Type.Object({ id: Str(64) });
export const ProfileIdParams = Type.Object({ id: Str(64) });
export const ProfileModelBody = Type.Object({ id: Str(64), model: Str(16) });
export const TextureDeleteBody = Type.Object({ id: Str(64), type: Str(16) });
export const TextureUploadParams = Type.Object({ id: Str(64), type: Str(16) });
export const TextureUploadQuery = Type.Object({
  model: Type.Optional(Str(16)),
});
export const AdminProfilesQuery = Type.Object({ username: Str(256) });

// The Yggdrasil API (authlib-injector's specification): field names are the protocol's.
const Agent = Type.Object({
  name: Type.Optional(Str(64)),
  version: Type.Optional(Type.Number()),
});
const SelectedProfile = Type.Object({
  id: Str(64),
  name: Type.Optional(Str(64)),
});

export const AuthenticateBody = Type.Object({
  username: Str(256),
  password: Str(4096),
  clientToken: Type.Optional(Str(256)),
  requestUser: Type.Optional(Type.Boolean()),
  agent: Type.Optional(Agent),
});
export type AuthenticateBody = Static<typeof AuthenticateBody>;
export const RefreshBody = Type.Object({
  accessToken: Str(512),
  clientToken: Type.Optional(Str(256)),
  requestUser: Type.Optional(Type.Boolean()),
  selectedProfile: Type.Optional(SelectedProfile),
});
export type RefreshBody = Static<typeof RefreshBody>;
export const TokenBody = Type.Object({
  accessToken: Str(512),
  clientToken: Type.Optional(Str(256)),
});
export const SignoutBody = Type.Object({
  username: Str(256),
  password: Str(4096),
});
export const JoinBody = Type.Object({
  accessToken: Str(512),
  selectedProfile: Str(64),
  serverId: Str(256),
});
export const HasJoinedQuery = Type.Object({
  username: Str(64),
  serverId: Str(256),
  ip: Type.Optional(Str(64)),
});
export const ProfileQuery = Type.Object({ unsigned: Type.Optional(Str(8)) });
export const NamesBody = Type.Array(Str(64), { maxItems: 1000 });
