/** The tables of Minecraft sign-in, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
export interface MinecraftProfilesTable {
  id: string;
  user_id: number;
  name: string;
  name_key: string;
  skin_hash: string | null;
  skin_model: string;
  cape_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface MinecraftTexturesTable {
  hash: string;
  png: string;
  created_at: number;
}

export interface MinecraftTokensTable {
  token_hash: string;
  client_token: string;
  user_id: number;
  profile_id: string | null;
  password_mark: string;
  issued_at: number;
  expires_at: number;
}

export interface MinecraftJoinsTable {
  server_id: string;
  profile_id: string;
  user_id: number;
  ip: string;
  expires_at: number;
}

export interface MinecraftSigningKeyTable {
  id: number;
  public_pem: string;
  private_jwk_enc: string;
  created_at: number;
}

export interface MinecraftTables {
  minecraft_profiles: MinecraftProfilesTable;
  minecraft_textures: MinecraftTexturesTable;
  minecraft_tokens: MinecraftTokensTable;
  minecraft_joins: MinecraftJoinsTable;
  minecraft_signing_key: MinecraftSigningKeyTable;
}
