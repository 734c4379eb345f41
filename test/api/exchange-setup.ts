import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { authorizeCode, createApp, type CreatedApp } from '../helpers/oauth.js';

// Many deliberate failures from one address: lift the exchange throttle, tested elsewhere.
export const ENV = {
  LIMIT_EXCHANGE_PAIR: '10000/300',
  LIMIT_EXCHANGE_CLIENT: '10000/300',
};
export const CB = 'https://good.example.com/cb';

/** A fresh app with one person and their confidential app. */
export async function startExchangeApp() {
  const t = await createTestApp(ENV);
  const user = await t.register();
  const conf = await createApp(t, user, { scopes: ['profile', 'email'] });
  return { t, user, conf };
}

/** The code exchange and a code for the confidential app, against what `current()` returns. */
export function exchangeRequests(
  current: () => { t: TestApp; user: TestUser; conf: CreatedApp },
) {
  const exchange = (payload: unknown) =>
    current().t.post('/api/v1/auth/exchange', payload);
  const confCode = (extra: Record<string, unknown> = {}) =>
    authorizeCode(current().t, current().user, {
      client_id: current().conf.client_id,
      redirect_uri: CB,
      ...extra,
    });
  return { exchange, confCode };
}
