#!/usr/bin/env node
// Device login (RFC 8628 style) against an Account Center, with nothing but Node 20.
//
//   node examples/device-login/index.mjs --base http://127.0.0.1:3000 [--client-id my-game]
//
// 1. Ask the center for a device code and a 6-digit user code.
// 2. Show the user code and the page where the player approves it (any browser, any device).
// 3. Poll until the player approves or refuses, or the code expires, honouring the interval.
// 4. Use the token: here, ask `me` who signed in.
//
// Exit code 0 when signed in, 1 otherwise.

import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: process.env.ACCOUNT_CENTER_URL ?? 'http://127.0.0.1:3000' },
    'client-id': { type: 'string' },
  },
});
const api = `${args.base.replace(/\/+$/, '')}/api/v1/auth`;

/** POSTs JSON and returns the HTTP status with the parsed body (every answer is JSON). */
async function post(path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${api}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Why a request never got an answer: ECONNREFUSED and the like, from fetch's cause. */
const reason = (err) => err.cause?.code ?? err.cause?.message ?? err.message;

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

function fail(message) {
  console.error(message);
  process.exit(1);
}

// 1. Start. Without a client_id the token is for the Account Center itself;
//    a registered application passes its own client_id and gets tokens for it.
const started = await post('device/start', args['client-id'] ? { client_id: args['client-id'] } : {})
  .catch((err) => fail(`could not reach ${args.base}: ${reason(err)}`));
if (!started.body.ok) fail(`could not start the device login: ${started.body.msg}`);
const { device_code, user_code, verification_uri, verification_uri_complete, expires_in } = started.body.data;
let interval = started.body.data.interval;

// 2. The device_code is this program's secret: never show it. The user_code is for the player.
console.log(`To sign in, open ${verification_uri} and enter the code: ${user_code}`);
console.log(`(or open ${verification_uri_complete})`);
console.log(`The code is valid for ${Math.round(expires_in / 60)} minutes. Waiting for approval...`);

// 3. Poll. Wait `interval` seconds between polls; on `slow_down` wait 5 s longer from then on.
const deadline = Date.now() + expires_in * 1000;
let token;
while (!token) {
  await sleep(interval);
  if (Date.now() > deadline) fail('The code expired before it was approved. Run the program again.');
  let answer;
  try {
    answer = await post('device/poll', { device_code });
  } catch (err) {
    // A network hiccup is not the end of the login: try again at the next interval.
    console.error(`poll failed (${reason(err)}), retrying`);
    continue;
  }
  if (answer.body.ok) {
    token = answer.body.access_token;
    break;
  }
  switch (answer.body.error) {
    case 'authorization_pending':
      break; // the player has not decided yet
    case 'slow_down':
      interval += 5;
      break;
    case 'access_denied':
      fail(`Sign-in refused: ${answer.body.msg}`);
      break;
    case 'expired_token':
      fail('The code expired or was already used. Run the program again.');
      break;
    default:
      fail(`Sign-in failed: ${answer.body.msg} (HTTP ${answer.status})`);
  }
}

// 4. Use the token. A real game would keep it (it is valid for `expires_in` seconds) and
//    send it as `Authorization: Bearer <token>`; its own server checks it with `me`.
const me = await fetch(`${api}/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
if (!me.ok) fail(`The token was not accepted: ${me.msg}`);
console.log(`signed in as ${me.data.username} (uid ${me.data.uid})`);
