import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { unique } from './suite-helpers.js';

/** The audit log. */
export function auditStorageSuite(storage: () => Storage): void {
  it('audit: append, filter, page newest first', async () => {
    const s = storage();
    const actor = unique('actor');
    await s.audit.append({
      at: 1,
      actor,
      ip: '::1',
      action: 'user.ban',
      target: 't1',
      detail: { banned: true },
    });
    await s.audit.append({
      at: 2,
      actor,
      ip: null,
      action: 'user.roles',
      target: 't2',
      detail: { roles: ['a'] },
    });
    await s.audit.append({
      at: 3,
      actor: null,
      ip: null,
      action: 'user.ban',
      target: 't1',
      detail: {},
    });
    const mine = await s.audit.list({ actor }, 0, 10);
    expect(mine.total).toBe(2);
    expect(mine.entries.map((e) => e.action)).toEqual([
      'user.roles',
      'user.ban',
    ]);
    expect(mine.entries[1]).toMatchObject({
      at: 1,
      actor,
      ip: '::1',
      target: 't1',
      detail: { banned: true },
    });
    expect(
      (await s.audit.list({ actor, action: 'user.ban' }, 0, 10)).total,
    ).toBe(1);
    const paged = await s.audit.list({ actor }, 1, 1);
    expect([paged.total, paged.entries.map((e) => e.at)]).toEqual([2, [1]]);
    expect(
      (await s.audit.list({ target: 't1', action: 'user.ban' }, 0, 10)).total,
    ).toBeGreaterThanOrEqual(2);
  });
}
