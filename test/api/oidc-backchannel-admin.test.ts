import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';

import { forumAndWiki } from './oidc-backchannel-setup.js';

/** OpenID Connect Back-Channel Logout 1.0 (docs/api.md §12.8), to a relying party that verifies with `jose`. */
const A = '/api/v1/auth';
const { env, signInToBoth, logoutOf } = forumAndWiki();

describe("the admin's view of logout tokens", () => {
  type Row = {
    id: number;
    client_id: string;
    sub: string;
    url: string;
    status: string;
    http_status: number | null;
    tries: number;
    event: string;
  };
  const L = `${A}/admin/webhooks/logout_deliveries`;

  it('lists what was sent to which client for whom, and sends one again on request', async () => {
    const admin = await env.t.admin();
    const user = await env.t.register();
    const { forumId } = await signInToBoth(user);
    expect(
      (await env.t.post(`${A}/logout`, { all: true }, user.token)).statusCode,
    ).toBe(200);
    await logoutOf(forumId.sid);
    const row = await waitFor('the delivered row', 20_000, async () => {
      const rows = (await env.t.get(L, admin.token)).json().data
        .deliveries as Row[];
      return rows.find(
        (r) => r.sub === String(user.uid) && r.status === 'delivered',
      );
    });
    expect(row).toMatchObject({
      client_id: env.forum.client_id,
      url: expect.stringMatching(/\/backchannel-logout$/),
      http_status: 200,
      tries: 1,
      event: 'oidc.backchannel_logout',
    });
    expect(JSON.stringify(row)).not.toMatch(/eyJ/);

    const before = env.forumReceiver.forSid(forumId.sid).length;
    expect(
      (
        await env.t.post(
          `${A}/admin/webhooks/redeliver`,
          { id: row.id },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor(
      'the token sent again',
      20_000,
      () => env.forumReceiver.forSid(forumId.sid).length > before,
    );
    // Signed again when sent, with the same jti, so a client that acted on the first drops it.
    const [first, ...rest] = env.forumReceiver
      .forSid(forumId.sid)
      .filter((p) => p.sub === String(user.uid));
    expect(rest.at(-1)).toMatchObject({
      jti: first!.jti,
      sid: forumId.sid,
      aud: env.forum.client_id,
    });
    expect(rest.at(-1)!.iat).toBeGreaterThanOrEqual(first!.iat!);
  });

  it('is for admins only', async () => {
    expect((await env.t.get(L, env.dev.token)).statusCode).toBe(403);
    expect((await env.t.get(L)).statusCode).toBe(401);
  });
});
