import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/errors/index.js';
import {
  codeStateOf,
  exchangeFailure,
  transition,
  type CodeEvent,
  type CodeState,
} from '../../src/features/authorization/code-state.js';

describe('authorization code state machine (docs/api.md §5.1)', () => {
  const table: Array<[CodeState, CodeEvent, CodeState, string]> = [
    ['none', 'authorize', 'issued', 'issued'],
    ['none', 'exchange', 'none', 'invalid'],
    ['none', 'elapse', 'none', 'unchanged'],
    ['issued', 'exchange', 'used', 'token'],
    ['issued', 'elapse', 'expired', 'unchanged'],
    ['issued', 'authorize', 'issued', 'invalid'],
    ['expired', 'exchange', 'expired', 'expired'],
    ['expired', 'elapse', 'expired', 'unchanged'],
    ['expired', 'authorize', 'expired', 'invalid'],
    ['used', 'exchange', 'used', 'replay'],
    ['used', 'elapse', 'used', 'unchanged'],
    ['used', 'authorize', 'used', 'invalid'],
  ];
  it.each(table)('%s --%s--> %s (%s)', (from, event, next, outcome) => {
    expect(transition(from, event)).toEqual({ next, outcome });
  });

  it('derives the state of a stored code; used wins over expired', () => {
    expect(codeStateOf(undefined, 0)).toBe('none');
    expect(codeStateOf({ usedAt: null, expiresAt: 1000 }, 999)).toBe('issued');
    expect(codeStateOf({ usedAt: null, expiresAt: 1000 }, 1000)).toBe(
      'expired',
    );
    expect(codeStateOf({ usedAt: 500, expiresAt: 1000 }, 600)).toBe('used');
    expect(codeStateOf({ usedAt: 500, expiresAt: 1000 }, 5000)).toBe('used');
  });

  it('maps failures to the docs/api.md §1.9 msgs', () => {
    expect(MSG[exchangeFailure('replay')]).toBe('授权码已被使用');
    expect(MSG[exchangeFailure('expired')]).toBe('授权码已过期');
    expect(MSG[exchangeFailure('invalid')]).toBe('授权码无效');
  });
});
