import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import { addProvider, signInThrough } from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';

/** A sign-in through another account is recorded as `upstream:{id}` (docs/api.md §17). */
let center: ListeningCenter;
let github: StandIn;

beforeAll(async () => {
  [center, github] = await Promise.all([listeningCenter(), startGithub()]);
  const admin = await center.admin();
  await addProvider(center, admin, githubProvider(github));
});
afterAll(async () => {
  await github?.close();
  await center?.close();
});

describe('sign-in through another account', () => {
  it('is listed with the provider as its method, each time, the account-creating one included', async () => {
    github.signInAs({
      id: '9001',
      login: 'history-cat',
      name: 'History Cat',
      emails: [
        { email: 'history@github.example', primary: true, verified: true },
      ],
    });
    const first = await signInThrough(center, 'github');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await signInThrough(center, 'github');
    const res = await center.get(
      '/api/v1/auth/account/sign_ins',
      again.body.access_token,
    );
    const list = res.json().data.sign_ins as Array<{
      ip: string;
      user_agent: string;
      method: string;
    }>;
    expect(list.map((s) => s.method)).toEqual([
      'upstream:github',
      'upstream:github',
    ]);
    expect(list[0]!.ip).toBe('127.0.0.1');
    // Same browser and address both times, and the first sign-in of a new account: no notice.
    await center.mailSent();
    expect(
      center.smtp
        .subjectsTo('history@github.example')
        .filter((s) => s.includes('新设备登录提醒')),
    ).toEqual([]);
  });
});
