import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** An auth API request as the owner `current()` returns, unless another token is given. */
export function ownerRequests(current: () => { t: TestApp; owner: TestUser }) {
  return (path: string, payload: unknown, token = current().owner.token) =>
    current().t.post(`/api/v1/auth/${path}`, payload, token);
}

/** A refusal as [status, msg]. */
export const fail = async (
  res: Promise<{ statusCode: number; json(): { msg: string } }>,
) => {
  const r = await res;
  return [r.statusCode, r.json().msg];
};

/**
 * One app shared by a test file's tests and closed after them, with an `owner` of apps and an
 * `other` user, and `post` as the owner.
 */
export function appsApp() {
  const env = {} as { t: TestApp; owner: TestUser; other: TestUser };
  beforeAll(async () => {
    env.t = await createTestApp();
    env.owner = await env.t.register();
    env.other = await env.t.register();
  });
  afterAll(async () => {
    await env.t.close();
  });
  return { env, post: ownerRequests(() => env) };
}
