import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { Housekeeping } from '../../src/features/housekeeping/housekeeping.js';
import { RevokedTokens } from '../../src/features/sessions/revoked-tokens.js';
import { createTestApp } from '../helpers/app.js';
import { jwtClaims } from '../helpers/jwt.js';

describe('housekeeping', () => {
  it('purges revocations of expired tokens and old e-mail codes, keeping live ones', async () => {
    let clock = Date.now();
    const t = await createTestApp({ TOKEN_TTL: '100' }, { now: () => clock });
    try {
      const { storage, bus } = t.runtime;
      // A cache of this instance's own, fed by the same database and change bus as the service's.
      const state = new RevokedTokens(storage.revocations, bus, () => clock);
      await state.start();
      const keeper = new Housekeeping(
        storage,
        state,
        () => clock,
        createLogger('silent'),
      );
      const u = await t.register();
      const user = await storage.users.findById(u.uid);
      const longLived = (await t.runtime.services.tokens.issue(user!, 'game'))
        .token;
      expect(
        (await t.post('/api/v1/auth/logout', undefined, u.token)).statusCode,
      ).toBe(200);
      expect(
        (await t.post('/api/v1/auth/logout', undefined, longLived)).statusCode,
      ).toBe(200);
      await t.post('/api/v1/auth/send_code', {
        email: u.email,
        purpose: 'login',
      });
      expect(await storage.revocations.isRevoked(jwtClaims(u.token).jti)).toBe(
        true,
      );

      clock += 2 * 3600_000;
      await keeper.run();
      // The 100-second token's revocation is gone; the 30-day one's stays, here and in the database.
      expect(await storage.revocations.isRevoked(jwtClaims(u.token).jti)).toBe(
        false,
      );
      expect(state.isRevoked(jwtClaims(u.token).jti)).toBe(false);
      expect(
        await storage.revocations.isRevoked(jwtClaims(longLived).jti),
      ).toBe(true);
      expect(state.isRevoked(jwtClaims(longLived).jti)).toBe(true);
      expect(await storage.emailCodes.lastSentAt(u.email)).toBeUndefined();
      state.stop();
    } finally {
      await t.close();
    }
  });
});
