/**
 * A stand-in for "Sign in through Steam", answering as documented:
 * https://partner.steamgames.com/doc/features/auth#website (OpenID 2.0, `checkid_setup`,
 * identifiers https://steamcommunity.com/openid/id/<SteamID64>), the OpenID 2.0 specification
 * (https://openid.net/specs/openid-authentication-2_0.html §10 positive assertions, §11.4.2
 * `check_authentication`, which answers `is_valid:true` once per response nonce) and
 * https://developer.valvesoftware.com/wiki/Steam_Web_API#GetPlayerSummaries_.28v0002.29.
 */
import { createHmac } from 'node:crypto';
import {
  json,
  random,
  redirect,
  StandIn,
  text,
  type Person,
} from './stand-in.js';

export interface SteamPerson extends Person {
  /** The SteamID64, 17 digits. */
  id: string;
  personaname?: string;
}

const NS = 'http://specs.openid.net/auth/2.0';
const SIGNED = [
  'signed',
  'op_endpoint',
  'claimed_id',
  'identity',
  'return_to',
  'response_nonce',
  'assoc_handle',
];
export const STEAM_API_KEY = 'STANDINSTEAMWEBAPIKEY0123456789AB';

export interface SteamStandIn extends StandIn {
  endpoint: string;
  /** Whether the next assertion gets a bad signature (a forged answer). */
  forge: boolean;
}

export async function startSteam(): Promise<SteamStandIn> {
  const key = random(32);
  const usedNonces = new Set<string>();
  const sign = (fields: Record<string, string>) =>
    createHmac('sha256', key)
      .update(SIGNED.map((k) => `${k}:${fields[`openid.${k}`]}\n`).join(''))
      .digest('base64');
  const s = new StandIn({
    'GET /openid/login': (req, res) => {
      const q = req.url.searchParams;
      const returnTo = q.get('openid.return_to') ?? '';
      if (
        q.get('openid.mode') !== 'checkid_setup' ||
        q.get('openid.ns') !== NS ||
        !returnTo.startsWith(q.get('openid.realm') ?? '\u0000')
      ) {
        return text(res, 400, 'Invalid OpenID request');
      }
      const back = new URL(returnTo);
      if (s.declines) {
        back.searchParams.set('openid.ns', NS);
        back.searchParams.set('openid.mode', 'cancel');
        return redirect(res, back.toString());
      }
      const claimed = `https://steamcommunity.com/openid/id/${s.person.id}`;
      const fields: Record<string, string> = {
        'openid.ns': NS,
        'openid.mode': 'id_res',
        'openid.op_endpoint': steam.endpoint,
        'openid.claimed_id': claimed,
        'openid.identity': claimed,
        'openid.return_to': returnTo,
        'openid.response_nonce': `${new Date().toISOString().slice(0, 19)}Z${random(6)}`,
        'openid.assoc_handle': '1234567890',
        'openid.signed': SIGNED.join(','),
      };
      fields['openid.sig'] = steam.forge ? 'Zm9yZ2Vk' : sign(fields);
      for (const [k, v] of Object.entries(fields)) back.searchParams.set(k, v);
      redirect(res, back.toString());
    },
    'POST /openid/login': (req, res) => {
      const f = Object.fromEntries(req.form);
      const nonce = f['openid.response_nonce'] ?? '';
      const valid =
        f['openid.mode'] === 'check_authentication' &&
        f['openid.sig'] === sign(f) &&
        !usedNonces.has(nonce);
      if (valid) usedNonces.add(nonce);
      text(res, 200, `ns:${NS}\nis_valid:${valid ? 'true' : 'false'}\n`);
    },
    'GET /ISteamUser/GetPlayerSummaries/v0002/': (req, res) => {
      const q = req.url.searchParams;
      if (q.get('key') !== STEAM_API_KEY)
        return text(
          res,
          403,
          '<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>',
          'text/html',
        );
      const ids = (q.get('steamids') ?? '').split(',');
      const players = ids
        .filter((id) => id === s.person.id)
        .map((id) => ({
          steamid: id,
          communityvisibilitystate: 3,
          profilestate: 1,
          personaname: (s.person as SteamPerson).personaname ?? 'player',
          profileurl: `https://steamcommunity.com/profiles/${id}/`,
          avatarfull: `https://avatars.steamstatic.com/${id}_full.jpg`,
        }));
      json(res, 200, { response: { players } });
    },
  });
  const steam = Object.assign(s, {
    endpoint: '',
    forge: false,
  }) as SteamStandIn;
  await s.start();
  steam.endpoint = `${s.base}/openid/login`;
  return steam;
}
