import { randomUUID } from 'node:crypto';
import { pngSize } from '../../platform/images/png.js';
import type { SkinModel, TextureKind } from './repository.js';

/** 1–16 letters, digits or underscores: what the game itself accepts as a player name. */
const NAME = /^[A-Za-z0-9_]{1,16}$/;
const UNSIGNED_UUID = /^[0-9a-f]{32}$/;

export const TEXTURE_MAX_BYTES = 64 * 1024;
/** The sizes the game reads: classic and current skins, and the two cape layouts. */
const SIZES: Record<TextureKind, ReadonlyArray<readonly [number, number]>> = {
  skin: [[64, 32], [64, 64]],
  cape: [[64, 32], [22, 17]],
};

export const isValidProfileName = (name: string): boolean => NAME.test(name);

/** Profile ids are unsigned UUIDs, compared lower-case; dashed input is accepted too. */
export function profileIdOf(raw: string): string | undefined {
  const id = raw.replaceAll('-', '').toLowerCase();
  return UNSIGNED_UUID.test(id) ? id : undefined;
}

export const newProfileId = (): string => randomUUID().replaceAll('-', '');

export const isSkinModel = (v: unknown): v is SkinModel => v === 'default' || v === 'slim';
export const isTextureKind = (v: unknown): v is TextureKind => v === 'skin' || v === 'cape';

/** Whether `file` is a PNG of a size the game reads for `kind`, within the size cap. */
export function isAcceptableTexture(kind: TextureKind, file: Buffer): boolean {
  if (file.length > TEXTURE_MAX_BYTES) return false;
  const size = pngSize(file);
  return size !== undefined && SIZES[kind].some(([w, h]) => size.width === w && size.height === h);
}
