import { randomUUID } from 'node:crypto';
import {
  decodePng,
  pngHeaderSize,
  type RgbaImage,
} from '../../platform/images/png.js';
import { asciiLower } from '../accounts/index.js';
import type { SkinModel, TextureKind } from './repository.js';

/** 1–16 letters, digits or underscores: what the game itself accepts as a player name. */
const NAME = /^[A-Za-z0-9_]{1,16}$/;
const UNSIGNED_UUID = /^[0-9a-f]{32}$/;

export const TEXTURE_MAX_BYTES = 64 * 1024;
/** The sizes the game reads: classic and current skins, and the two cape layouts. */
const SIZES: Record<TextureKind, ReadonlyArray<readonly [number, number]>> = {
  skin: [
    [64, 32],
    [64, 64],
  ],
  cape: [
    [64, 32],
    [22, 17],
  ],
};

export const isValidProfileName = (name: string): boolean => NAME.test(name);

/**
 * Names that would pass for the site's staff in the game and in chat: given only by
 * administrators (docs/minecraft.md lists them). Compared ignoring case.
 */
export const RESERVED_PROFILE_NAMES: readonly string[] = [
  'admin',
  'administrator',
  'moderator',
  'mod',
  'root',
  'system',
  'staff',
  'owner',
  'support',
  'operator',
  'official',
  'server',
  'console',
];

/** A reserved name, or the site's own name (SITE_NAME with spaces dropped or made underscores). */
export function isReservedProfileName(name: string, siteName: string): boolean {
  const key = asciiLower(name);
  const site = asciiLower(siteName.trim());
  return (
    RESERVED_PROFILE_NAMES.includes(key) ||
    key === site.replace(/\s+/g, '') ||
    key === site.replace(/\s+/g, '_')
  );
}

/** Profile ids are unsigned UUIDs, compared lower-case; dashed input is accepted too. */
export function profileIdOf(raw: string): string | undefined {
  const id = raw.replaceAll('-', '').toLowerCase();
  return UNSIGNED_UUID.test(id) ? id : undefined;
}

export const newProfileId = (): string => randomUUID().replaceAll('-', '');

export const isSkinModel = (v: unknown): v is SkinModel =>
  v === 'default' || v === 'slim';
export const isTextureKind = (v: unknown): v is TextureKind =>
  v === 'skin' || v === 'cape';

/**
 * The picture of `file` when it is a PNG of a size the game reads for `kind`, within the size
 * cap; undefined otherwise. The size is read from the header before anything is inflated.
 */
export function textureImage(
  kind: TextureKind,
  file: Buffer,
): RgbaImage | undefined {
  if (file.length > TEXTURE_MAX_BYTES) return undefined;
  const fits = (size: { width: number; height: number } | undefined) =>
    size !== undefined &&
    SIZES[kind].some(([w, h]) => size.width === w && size.height === h);
  if (!fits(pngHeaderSize(file))) return undefined;
  const image = decodePng(file);
  return fits(image) ? image : undefined;
}
