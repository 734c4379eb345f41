import { describe, expect, it } from 'vitest';
import { LocalChangeBus } from '../../src/platform/bus/change-bus.js';
import { ClientDirectory } from '../../src/features/apps/client-directory.js';
import { CorsWhitelist } from '../../src/features/apps/cors-whitelist.js';
import type { App } from '../../src/features/apps/repository.js';

const app = (clientId: string, origin: string): App => ({
  clientId,
  ownerId: 1,
  displayName: clientId,
  homepage: '',
  scopes: [],
  redirectUris: [],
  corsOrigins: [origin],
  clientType: 'public',
  secretHash: null,
  status: 'active',
  grantTypes: [],
  tokenEndpointAuthMethod: 'none',
  postLogoutRedirectUris: [],
  backchannelLogoutUri: '',
  backchannelLogoutSessionRequired: false,
  statusReason: '',
  statusChangedAt: null,
  adminScopes: [],
  requiredRoles: [],
  createdAt: 0,
  updatedAt: 0,
});

/** Apps whose origin can change behind the whitelist's back, counted reads, a hand-driven clock. */
function fixture(ttlMs: number) {
  const clock = { now: 1_000_000 };
  const rows = new Map<string, App>([['a', app('a', 'https://a.example')]]);
  let reads = 0;
  const apps = {
    async findById(id: string) {
      reads += 1;
      return rows.get(id);
    },
  };
  const clients = new ClientDirectory(apps, {
    centerAppId: 'account-center',
    gameAppId: 'game',
    siteNames: { 'zh-CN': 'Center', en: 'Center' },
  });
  const bus = new LocalChangeBus();
  const whitelist = new CorsWhitelist(
    clients,
    { listActive: async () => [...rows.values()] },
    bus,
    ttlMs,
    () => clock.now,
  );
  return { clock, rows, bus, whitelist, reads: () => reads };
}

describe('CorsWhitelist per-app origins', () => {
  it('are kept for the TTL by the given clock, then read again', async () => {
    const f = fixture(60_000);
    expect(await f.whitelist.allows('https://a.example', 'a')).toBe(true);
    f.rows.set('a', app('a', 'https://moved.example'));
    f.clock.now += 59_000;
    expect(await f.whitelist.allows('https://a.example', 'a')).toBe(true);
    expect(f.reads()).toBe(1);
    f.clock.now += 2000;
    expect(await f.whitelist.allows('https://a.example', 'a')).toBe(false);
    expect(await f.whitelist.allows('https://moved.example', 'a')).toBe(true);
    expect(f.reads()).toBe(2);
  });

  it('are dropped at once by an app change on the bus', async () => {
    const f = fixture(60_000);
    expect(await f.whitelist.allows('https://a.example', 'a')).toBe(true);
    f.rows.set('a', app('a', 'https://moved.example'));
    f.bus.deliver({ type: 'app', clientId: 'a' });
    expect(await f.whitelist.allows('https://moved.example', 'a')).toBe(true);
  });

  it('are not kept at all with a TTL of 0', async () => {
    const f = fixture(0);
    await f.whitelist.allows('https://a.example', 'a');
    await f.whitelist.allows('https://a.example', 'a');
    expect(f.reads()).toBe(2);
  });
});
