import { describe, expect, it } from 'vitest';
import {
  LocalChangeBus,
  type ChangeEvent,
} from '../../src/platform/bus/change-bus.js';
import { RevokedTokens } from '../../src/features/sessions/revoked-tokens.js';

/** A revocation table in memory (id → when it was recorded), with a hand-driven clock. */
function fixture() {
  const clock = { now: 1_000_000 };
  const table = new Map<string, number>();
  const revocations = {
    async revoke(jti: string, _userId: number, _exp: number, now: number) {
      table.set(jti, now);
    },
    async revokedSince(since: number) {
      return [...table].filter(([, at]) => at >= since).map(([jti]) => jti);
    },
  };
  const bus = new LocalChangeBus();
  const published: ChangeEvent[] = [];
  bus.subscribe((e) => published.push(e));
  return {
    clock,
    table,
    bus,
    published,
    revoked: new RevokedTokens(revocations, bus, () => clock.now),
  };
}

describe('RevokedTokens', () => {
  it('a revocation here is stored, applies at once and is announced', async () => {
    const f = fixture();
    await f.revoked.revoke('a.1', 1, 2_000_000);
    expect(f.revoked.isRevoked('a.1')).toBe(true);
    expect(f.table.has('a.1')).toBe(true);
    expect(f.published).toContainEqual({ type: 'revoked', jti: 'a.1' });
  });

  it("learns other instances' revocations from the bus and from the table", async () => {
    const f = fixture();
    f.table.set('before-start', f.clock.now - 10_000);
    await f.revoked.start();
    f.revoked.stop();
    expect(f.revoked.isRevoked('before-start')).toBe(true);
    f.bus.deliver({ type: 'revoked', jti: 'by-event' });
    expect(f.revoked.isRevoked('by-event')).toBe(true);
    expect(f.revoked.isRevoked('never')).toBe(false);
  });

  it('reload keeps what the table still holds and what was added meanwhile', async () => {
    const f = fixture();
    await f.revoked.revoke('purged', 1, 0);
    f.table.delete('purged');
    f.clock.now += 1000;
    await f.revoked.revoke('kept', 1, 0);
    await f.revoked.reload();
    expect(f.revoked.isRevoked('purged')).toBe(false);
    expect(f.revoked.isRevoked('kept')).toBe(true);
  });
});
