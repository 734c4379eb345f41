import { solveChallenge } from 'altcha-lib';
import type { TestApp } from './app.js';

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** Fetches a challenge from GET /api/v1/auth/captcha and solves it as the widget would: the `captcha` value. */
export async function solvedCaptcha(t: Pick<TestApp, 'get'>): Promise<string> {
  const res = await t.get('/api/v1/auth/captcha');
  if (res.statusCode !== 200)
    throw new Error(`captcha: ${res.statusCode} ${res.body}`);
  return solve((res.json() as { data: Challenge }).data);
}

/** The payload for a challenge, found by altcha-lib's own solver. */
export async function solve(c: Challenge): Promise<string> {
  const solution = await solveChallenge(
    c.challenge,
    c.salt,
    c.algorithm,
    c.maxnumber,
  ).promise;
  if (!solution) throw new Error('captcha: no solution below maxnumber');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
