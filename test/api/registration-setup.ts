import { uniqueName, type TestApp, type TestUser } from '../helpers/app.js';

const A = '/api/v1/auth';

/** A registration body for a fresh name, with an address at `domain`. */
export const newAccount = (domain = 'example.com') => {
  const username = uniqueName('reg');
  return {
    username,
    password: 'correct horse battery',
    email: `${username}@${domain}`,
  };
};

/** An administrator made as the CLI makes one: registration may be closed. */
export async function adminOf(t: TestApp): Promise<TestUser> {
  const account = newAccount();
  await t.runtime.services.admin.createUser(
    { ...account, roles: ['player', 'admin'] },
    'test',
  );
  const res = await t.post(`${A}/login`, {
    username: account.username,
    password: account.password,
  });
  return {
    ...account,
    token: res.json().access_token,
    uid: res.json().user.uid,
  };
}
