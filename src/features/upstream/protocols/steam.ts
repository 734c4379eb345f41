/**
 * Sign in through Steam: OpenID 2.0 (https://partner.steamgames.com/doc/features/auth#website,
 * https://openid.net/specs/openid-authentication-2_0.html). Written here rather than taken
 * from a library: the whole of it is one redirect and one `check_authentication` POST, and
 * the Node OpenID 2.0 libraries are unmaintained and bring discovery, associations and
 * XRDS parsing that Steam's fixed endpoint does not need.
 *
 * The assertion is trusted only when Steam itself confirms it (`is_valid:true`), asked at
 * the configured endpoint, never at an address taken from the answer; `return_to` must be
 * this flow's exact callback (with its state), so an assertion made for another flow or
 * site is refused. Each field must appear once: the values checked here are the values
 * Steam is asked to confirm.
 */
import { endpointOf } from '../provider-rules.js';
import {
  avatarUrl,
  getJson,
  optionalText,
  singleValued,
  upstreamFetch,
  withParams,
} from './http.js';
import {
  UpstreamError,
  type ActiveProvider,
  type FlowValues,
  type UpstreamProfile,
  type UpstreamProtocol,
} from './types.js';

const NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
/** Steam's claimed identifiers: the SteamID64 after a fixed prefix. */
const CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(\d{17})$/;
/** Fields OpenID 2.0 §10.1 requires to be covered by the signature. */
const MUST_BE_SIGNED = [
  'op_endpoint',
  'return_to',
  'response_nonce',
  'assoc_handle',
  'claimed_id',
  'identity',
];

/** The callback address Steam sends the browser back to: the state rides in it. */
const returnTo = (flow: FlowValues) =>
  withParams(flow.redirectUri, { state: flow.state }).toString();

export class SteamProtocol implements UpstreamProtocol {
  async authorizationUrl(p: ActiveProvider, flow: FlowValues): Promise<URL> {
    return withParams(endpointOf(p.record, 'openidEndpoint') as string, {
      'openid.ns': NS,
      'openid.mode': 'checkid_setup',
      'openid.return_to': returnTo(flow),
      'openid.realm': flow.realm,
      'openid.identity': IDENTIFIER_SELECT,
      'openid.claimed_id': IDENTIFIER_SELECT,
    });
  }

  async complete(
    p: ActiveProvider,
    callback: URL,
    flow: FlowValues,
  ): Promise<UpstreamProfile> {
    // One value per field, checked and then sent back to Steam as it is (OpenID 2.0 §11.4.2.1).
    const q = singleValued(callback.searchParams);
    if (!q)
      throw new UpstreamError(
        'provider',
        'a field of the assertion appears more than once',
      );
    const endpoint = endpointOf(p.record, 'openidEndpoint') as string;
    const mode = q.get('openid.mode');
    if (mode === 'cancel')
      throw new UpstreamError('denied', 'the person cancelled at Steam');
    if (mode !== 'id_res' || q.get('openid.ns') !== NS)
      throw new UpstreamError(
        'provider',
        `unexpected openid.mode ${mode ?? '(none)'}`,
      );
    if (q.get('openid.return_to') !== returnTo(flow))
      throw new UpstreamError('provider', 'openid.return_to is not this flow');
    if (q.get('openid.op_endpoint') !== endpoint)
      throw new UpstreamError(
        'provider',
        'openid.op_endpoint is not the configured endpoint',
      );
    const claimed = q.get('openid.claimed_id') ?? '';
    const steamId = CLAIMED_ID.exec(claimed)?.[1];
    if (steamId === undefined || q.get('openid.identity') !== claimed)
      throw new UpstreamError('provider', 'not a Steam identifier');
    const signed = (q.get('openid.signed') ?? '').split(',');
    if (MUST_BE_SIGNED.some((f) => !signed.includes(f)))
      throw new UpstreamError(
        'provider',
        'the assertion leaves required fields unsigned',
      );
    await this.verify(endpoint, q);
    return {
      subject: steamId,
      emailVerified: false,
      ...(await this.summary(p, steamId)),
    };
  }

  /** `check_authentication`: Steam confirms the assertion it signed (OpenID 2.0 §11.4.2). */
  private async verify(
    endpoint: string,
    q: ReadonlyMap<string, string>,
  ): Promise<void> {
    const body = new URLSearchParams();
    for (const [k, v] of q) if (k.startsWith('openid.')) body.append(k, v);
    body.set('openid.mode', 'check_authentication');
    const text = await upstreamFetch(endpoint, {
      method: 'POST',
      body: body.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/plain',
      },
    });
    const fields = new Map(
      text.split('\n').map((line) => {
        const i = line.indexOf(':');
        return [line.slice(0, i).trim(), line.slice(i + 1).trim()] as const;
      }),
    );
    if (fields.get('ns') !== NS || fields.get('is_valid') !== 'true')
      throw new UpstreamError(
        'provider',
        'Steam did not confirm the assertion',
      );
  }

  /**
   * Name and avatar from the Steam Web API when an API key is configured
   * (https://developer.valvesoftware.com/wiki/Steam_Web_API#GetPlayerSummaries_.28v0002.29).
   * The sign-in is already proven: a failure here only leaves the profile empty.
   */
  private async summary(
    p: ActiveProvider,
    steamId: string,
  ): Promise<Pick<UpstreamProfile, 'username' | 'displayName' | 'avatarUrl'>> {
    if (!p.apiKey) return {};
    try {
      const url = withParams(
        `${endpointOf(p.record, 'apiBase') as string}/ISteamUser/GetPlayerSummaries/v0002/`,
        { key: p.apiKey, steamids: steamId },
      );
      const players = (
        (await getJson(url)) as {
          response?: { players?: Array<Record<string, unknown>> };
        }
      )?.response?.players;
      const player = Array.isArray(players)
        ? players.find((x) => x?.steamid === steamId)
        : undefined;
      if (!player) return {};
      const name = optionalText(player.personaname);
      return {
        username: name,
        displayName: name,
        avatarUrl: avatarUrl(player.avatarfull),
      };
    } catch {
      return {};
    }
  }
}
