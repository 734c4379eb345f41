import type { TestApp, TestUser } from '../helpers/app.js';

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
