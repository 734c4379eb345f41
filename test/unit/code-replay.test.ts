import { describe, expect, it } from 'vitest';
import { CodeReplays } from '../../src/features/authorization/index.js';
import type { AuthCode } from '../../src/features/authorization/repository.js';
import type { AuditLog } from '../../src/features/audit/index.js';

const code = (over: Partial<AuthCode>): AuthCode => ({
  codeHash: 'h',
  clientId: 'client-1',
  userId: 7,
  redirectUri: 'https://a/cb',
  scope: 'openid',
  codeChallenge: null,
  codeChallengeMethod: null,
  expiresAt: 2000,
  usedAt: 1000,
  tokenJti: null,
  tokenExp: null,
  replayedAt: null,
  createdAt: 900,
  flow: 'v1',
  nonce: null,
  authTime: null,
  redirectUriGiven: true,
  refreshFamily: null,
  amr: null,
  sessionId: null,
  ...over,
});

function replaysOf(row: AuthCode | undefined) {
  const calls: unknown[][] = [];
  const replays = new CodeReplays(
    {
      markReplayed: async (hash, now) => {
        calls.push(['markReplayed', hash, now]);
        return row && { ...row, replayedAt: now };
      },
    },
    {
      revoke: async (jti, userId, exp) => {
        calls.push(['revoke', jti, userId, exp]);
      },
    },
    async (familyId, now) => {
      calls.push(['revokeFamily', familyId, now]);
    },
    {
      record: async (action: string, ctx: unknown) => {
        calls.push(['audit', action, ctx]);
      },
    } as unknown as AuditLog,
    () => 5000,
  );
  return { replays, calls };
}

describe('a replayed authorization code', () => {
  it('v1 exchange: the token issued from it is revoked and the replay recorded', async () => {
    const { replays, calls } = replaysOf(
      code({ tokenJti: 'jti-1', tokenExp: 99 }),
    );
    await replays.revokeIssued('h', 'v1', { ip: '192.0.2.1' });
    expect(calls).toEqual([
      ['markReplayed', 'h', 5000],
      ['revoke', 'jti-1', 7, 99],
      [
        'audit',
        'code.replay',
        {
          ip: '192.0.2.1',
          target: 'client-1',
          detail: { token_revoked: true },
        },
      ],
    ]);
  });

  it('OpenID Connect: the access token and the refresh family it started are revoked', async () => {
    const { replays, calls } = replaysOf(
      code({
        flow: 'oidc',
        tokenJti: 'jti-2',
        tokenExp: 98,
        refreshFamily: 'fam-1',
      }),
    );
    await replays.revokeIssued('h', 'oidc', { ip: '192.0.2.2' });
    expect(calls).toEqual([
      ['markReplayed', 'h', 5000],
      ['revoke', 'jti-2', 7, 98],
      ['revokeFamily', 'fam-1', 5000],
      [
        'audit',
        'code.replay',
        {
          ip: '192.0.2.2',
          target: 'client-1',
          detail: { token_revoked: true, flow: 'oidc' },
        },
      ],
    ]);
  });

  it('nothing issued yet (or the row gone): only the record', async () => {
    for (const row of [code({}), undefined]) {
      const { replays, calls } = replaysOf(row);
      await replays.revokeIssued('h', 'oidc', { ip: '192.0.2.3' });
      expect(calls.slice(1)).toEqual([
        [
          'audit',
          'code.replay',
          {
            ip: '192.0.2.3',
            target: row ? 'client-1' : null,
            detail: { token_revoked: false, flow: 'oidc' },
          },
        ],
      ]);
    }
  });
});
