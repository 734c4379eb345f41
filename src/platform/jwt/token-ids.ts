import { randomToken, timeOrderedId } from '../crypto/random.js';

/**
 * The id (`jti`) of every token this service signs: its issue time in milliseconds (base 36),
 * a dot, then 128 random bits. The time lets a logout-all or password reset cut off every
 * token issued before it, even within the same second as `iat`.
 */
export function newJti(issuedMs: number): string {
  return `${issuedMs.toString(36)}.${randomToken(16)}`;
}

/** The issue time (ms) a jti starts with; -1 when it carries none. */
export function jtiIssuedMs(jti: string): number {
  const dot = jti.indexOf('.');
  const ms = dot > 0 ? parseInt(jti.slice(0, dot), 36) : NaN;
  return Number.isFinite(ms) ? ms : -1;
}

/**
 * The `sid` shared by a family of tokens (a first-party sign-in, an OpenID Connect refresh
 * family), which is also its row's key: 88 random bits after the wall-clock time (the real
 * one even under a test clock: it only places the row near the end of its index).
 */
export const newSid = (): string => timeOrderedId(Date.now());
