/** The authorization-code state machine of docs/api.md §5.1. */
import type { Reason } from '../../errors/index.js';

export type CodeState = 'none' | 'issued' | 'used' | 'expired';
export type CodeEvent = 'authorize' | 'exchange' | 'elapse';
/** What the event means for the caller: `token` is the only success of an exchange. */
export type CodeOutcome =
  | 'issued'
  | 'token'
  | 'expired'
  | 'replay'
  | 'invalid'
  | 'unchanged';

/** The state of a stored code at `now` (ms). Used wins over expired: a late replay is still a replay. */
export function codeStateOf(
  code: { usedAt: number | null; expiresAt: number } | undefined,
  now: number,
): CodeState {
  if (!code) return 'none';
  if (code.usedAt !== null) return 'used';
  return code.expiresAt <= now ? 'expired' : 'issued';
}

export function transition(
  state: CodeState,
  event: CodeEvent,
): { next: CodeState; outcome: CodeOutcome } {
  switch (event) {
    case 'authorize':
      return state === 'none'
        ? { next: 'issued', outcome: 'issued' }
        : { next: state, outcome: 'invalid' };
    case 'elapse':
      return state === 'issued'
        ? { next: 'expired', outcome: 'unchanged' }
        : { next: state, outcome: 'unchanged' };
    case 'exchange':
      if (state === 'issued') return { next: 'used', outcome: 'token' };
      if (state === 'used') return { next: 'used', outcome: 'replay' };
      if (state === 'expired') return { next: 'expired', outcome: 'expired' };
      return { next: 'none', outcome: 'invalid' };
  }
}

/** The refusal reason of an exchange outcome other than `token`. */
export function exchangeFailure(outcome: CodeOutcome): Reason {
  if (outcome === 'replay') return 'codeUsed';
  if (outcome === 'expired') return 'codeExpired';
  return 'codeInvalid';
}
