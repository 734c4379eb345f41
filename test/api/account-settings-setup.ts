import type { TestApp, TestUser } from '../helpers/app.js';

const A = '/api/v1/auth';
const ACC = `${A}/account`;

/** A password sign-in and the session list against the app `current()` returns. */
export function accountSessions(current: () => TestApp) {
  const login = async (u: TestUser, headers: Record<string, string> = {}) =>
    (
      await current().post(
        `${A}/login`,
        { username: u.username, password: u.password },
        undefined,
        headers,
      )
    ).json().access_token as string;
  const sessionsOf = async (token: string) =>
    (await current().get(`${ACC}/sessions`, token)).json().data
      .sessions as Array<Record<string, unknown>>;
  return { login, sessionsOf };
}
