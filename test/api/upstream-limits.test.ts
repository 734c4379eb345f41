import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listeningCenter,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  throughProvider,
} from '../helpers/upstream/flow.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';

/**
 * The callback's own limit per client address (docs/api.md §14.5): counted before anything
 * else, answered with a page and Retry-After, and never in the way of a password sign-in.
 */
let center: ListeningCenter;
let github: StandIn;

beforeAll(async () => {
  [center, github] = await Promise.all([
    listeningCenter({ IP_RATE_LIMITS: 'on', LIMIT_UPSTREAM_IP: '3/900' }),
    startGithub(),
  ]);
  const admin = await center.admin();
  await addProvider(center, admin, githubProvider(github));
});
afterAll(async () => {
  await github?.close();
  await center?.close();
});

describe('the callback limit', () => {
  it('refuses callbacks past LIMIT_UPSTREAM_IP with a page, and password sign-in from there still works', async () => {
    const person = await center.register();
    github.declines = true;
    for (let i = 0; i < 3; i++)
      expect(
        (await throughProvider(center, 'github', new CookieJar())).message,
      ).toBe('你取消了 GitHub 登录。');
    github.declines = false;
    github.signInAs({ id: '583250', login: 'over-limit' });
    const refused = await throughProvider(center, 'github', new CookieJar());
    expect(refused).toMatchObject({
      status: 429,
      result: 'error',
      message: '请求过于频繁，请稍后再试',
    });
    const login = await postJson(
      center,
      '/api/v1/auth/login',
      { username: person.username, password: person.password },
      new CookieJar(),
    );
    expect([login.status, login.body.ok]).toEqual([200, true]);
  });
});
