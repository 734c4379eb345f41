import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';

/** What the first-party authorize files share: one developer's confidential and public apps. */
export const CB = 'https://good.example.com/cb';

export interface AuthorizeClients {
  t: TestApp;
  user: TestUser;
  /** Confidential, with two callbacks and the profile and email scopes. */
  conf: CreatedApp;
  /** Public, with a loopback and a private-scheme callback. */
  pub: CreatedApp;
}

/** A fresh app with both clients, shared by a test file's tests and closed after them. */
export function authorizeClients(): AuthorizeClients {
  const env = {} as AuthorizeClients;
  beforeAll(async () => {
    env.t = await createTestApp();
    env.user = await env.t.register();
    env.conf = await createApp(env.t, env.user, {
      redirect_uris: [CB, 'https://good.example.com/cb2?app=1'],
      scopes: ['profile', 'email'],
      homepage: 'https://good.example.com',
    });
    env.pub = await createApp(env.t, env.user, {
      client_type: 'public',
      redirect_uris: ['http://localhost:5173/cb', 'com.example.app:/cb'],
    });
  });
  afterAll(async () => {
    await env.t.close();
  });
  return env;
}
