import { describe, expect, it } from 'vitest';
import { viaTable } from '../helpers/refusal.js';
import {
  checkAppFields,
  isClientType,
  isReservedClientId,
  isValidClientId,
  isValidHomepage,
  toUnixSeconds,
} from '../../src/features/apps/app-rules.js';

const ok = {
  display_name: 'Demo',
  redirect_uris: ['https://a.example.com/cb'],
};

describe('client rules (docs/api.md §4)', () => {
  it('client_id pattern', () => {
    for (const id of ['abc', 'my-app_1', '0ab', 'a'.repeat(64)])
      expect(isValidClientId(id)).toBe(true);
    for (const id of [
      'ab',
      '-abc',
      '_abc',
      'Abc',
      'a b',
      'a'.repeat(65),
      'app.x',
    ])
      expect(isValidClientId(id)).toBe(false);
  });
  it('reserved ids and client types', () => {
    expect(
      isReservedClientId('account-center', ['account-center', 'game']),
    ).toBe(true);
    expect(isReservedClientId('games', ['account-center', 'game'])).toBe(false);
    expect(isClientType('public')).toBe(true);
    expect(isClientType('native')).toBe(false);
  });
  it('homepage', () => {
    expect(isValidHomepage('')).toBe(true);
    expect(isValidHomepage('https://a.example.com')).toBe(true);
    expect(isValidHomepage('javascript:alert(1)')).toBe(false);
  });
  it('create requires a display name and 1–20 callbacks', () => {
    expect(checkAppFields(ok, true)).toEqual({
      ok: true,
      value: {
        displayName: 'Demo',
        redirectUris: ['https://a.example.com/cb'],
      },
    });
    expect(
      viaTable(checkAppFields({ redirect_uris: ok.redirect_uris }, true)),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：display_name' });
    expect(viaTable(checkAppFields({ display_name: 'x' }, true))).toEqual({
      ok: false,
      status: 400,
      msg: '参数错误：redirect_uris',
    });
    expect(
      viaTable(checkAppFields({ display_name: 'x', redirect_uris: [] }, true)),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：redirect_uris' });
    const many = Array.from(
      { length: 21 },
      (_, i) => `https://a.example.com/${i}`,
    );
    expect(
      viaTable(
        checkAppFields({ display_name: 'x', redirect_uris: many }, true),
      ),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：redirect_uris' });
  });
  it('field formats carry their own msgs', () => {
    expect(
      viaTable(
        checkAppFields(
          { ...ok, redirect_uris: ['http://a.example.com/cb'] },
          true,
        ),
      ),
    ).toEqual({ ok: false, status: 400, msg: '回调地址格式不正确' });
    expect(
      viaTable(checkAppFields({ ...ok, cors_origins: ['null'] }, true)),
    ).toEqual({ ok: false, status: 400, msg: '来源格式不正确' });
    expect(
      viaTable(
        checkAppFields(
          { ...ok, cors_origins: ['https://a.example.com/'] },
          true,
        ),
      ),
    ).toEqual({ ok: false, status: 400, msg: '来源格式不正确' });
    expect(viaTable(checkAppFields({ ...ok, scopes: ['a b'] }, true))).toEqual({
      ok: false,
      status: 400,
      msg: '参数错误：scopes',
    });
    expect(
      viaTable(checkAppFields({ ...ok, homepage: 'ftp://x' }, true)),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：homepage' });
    expect(
      viaTable(checkAppFields({ ...ok, display_name: '   ' }, true)),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：display_name' });
  });
  it('update validates only what is sent and de-duplicates lists', () => {
    expect(checkAppFields({}, false)).toEqual({ ok: true, value: {} });
    expect(checkAppFields({ scopes: ['a', 'b', 'a'] }, false)).toEqual({
      ok: true,
      value: { scopes: ['a', 'b'] },
    });
  });
  it('times in unix seconds', () =>
    expect(toUnixSeconds(1_700_000_000_999)).toBe(1_700_000_000));
});
