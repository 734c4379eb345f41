import type { MinecraftProfile } from './repository.js';
import type { PropertySigningKey } from './signing-key.js';

export interface YggdrasilProperty {
  name: string;
  value: string;
  signature?: string;
}

export interface YggdrasilProfile {
  id: string;
  name: string;
  properties?: YggdrasilProperty[];
}

/** Where a texture is served: `{BASE_URL}/textures/{hash}`, a host listed in `skinDomains`. */
export const textureUrl = (baseUrl: string, hash: string): string =>
  `${baseUrl}/textures/${hash}`;

/**
 * Profiles as the Yggdrasil API serialises them: `{ id, name }`, and with properties the
 * `textures` (base64 JSON of the skin and cape URLs) and `uploadableTextures`, each signed
 * with the site's key when asked (hasJoined always asks).
 */
export class ProfileViews {
  constructor(
    private readonly baseUrl: string,
    private readonly key: Pick<PropertySigningKey, 'sign'>,
    private readonly now: () => number,
  ) {}

  brief(p: MinecraftProfile): YggdrasilProfile {
    return { id: p.id, name: p.name };
  }

  async full(p: MinecraftProfile, signed: boolean): Promise<YggdrasilProfile> {
    const textures: Record<string, unknown> = {};
    if (p.skinHash)
      textures.SKIN = {
        url: textureUrl(this.baseUrl, p.skinHash),
        ...(p.skinModel === 'slim' && { metadata: { model: 'slim' } }),
      };
    if (p.capeHash)
      textures.CAPE = { url: textureUrl(this.baseUrl, p.capeHash) };
    const payload = {
      timestamp: this.now(),
      profileId: p.id,
      profileName: p.name,
      ...(signed && { signatureRequired: true }),
      textures,
    };
    const properties: YggdrasilProperty[] = [
      {
        name: 'textures',
        value: Buffer.from(JSON.stringify(payload), 'utf8').toString('base64'),
      },
      { name: 'uploadableTextures', value: 'skin,cape' },
    ];
    if (signed)
      for (const prop of properties)
        prop.signature = await this.key.sign(prop.value);
    return { id: p.id, name: p.name, properties };
  }
}
