/**
 * QQ Connect (QQ 互联) website sign-in, written against its documentation since no maintained
 * Node client exists (https://wiki.connect.qq.com/使用authorization_code获取access_token,
 * https://wiki.connect.qq.com/获取用户openid_oauth2-0, https://wiki.connect.qq.com/get_user_info):
 * the code is exchanged with a GET carrying the secret and `fmt=json`; `/oauth2.0/me` names
 * the person (`openid`, and `unionid` when the application was granted it) and the app the
 * token belongs to, which must be this one; `/user/get_user_info` gives nickname and avatar.
 */
import { endpointOf, scopesOf } from '../provider-rules.js';
import { profileUrl } from './profiles.js';
import {
  avatarUrl,
  grantedCode,
  idText,
  jsonObject,
  optionalText,
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

/** QQ answers errors with HTTP 200 and `error` (token, me) or a non-zero `ret` (OpenAPI). */
function refusedBy(body: Record<string, unknown>, what: string): void {
  if (body.error !== undefined && body.error !== 0 && body.error !== '0')
    throw new UpstreamError(
      'provider',
      `QQ ${what}: error ${String(body.error)}`,
    );
  if (body.ret !== undefined && body.ret !== 0 && body.ret !== '0')
    throw new UpstreamError('provider', `QQ ${what}: ret ${String(body.ret)}`);
}

/** The token answer: JSON with fmt=json, the older `key=value&…` form otherwise. */
function tokenAnswer(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('callback('))
    return jsonObject(trimmed, 'QQ token');
  return Object.fromEntries(new URLSearchParams(trimmed));
}

/** `/oauth2.0/me`'s answer to an application that was not granted unionid and asked for it. */
const UNIONID_NOT_GRANTED = 100048;

/**
 * `/oauth2.0/me` asked for the unionid too; an application without that permission is
 * refused (error 100048, https://wiki.connect.qq.com/概念和术语), so it asks again for the
 * openid alone rather than failing every sign-in.
 */
async function whoIs(
  api: string,
  accessToken: string,
): Promise<Record<string, unknown>> {
  const ask = async (unionid: boolean) =>
    jsonObject(
      await upstreamFetch(
        withParams(`${api}/oauth2.0/me`, {
          access_token: accessToken,
          ...(unionid && { unionid: '1' }),
          fmt: 'json',
        }),
      ),
      'QQ me',
    );
  let me = await ask(true);
  if (Number(me.error) === UNIONID_NOT_GRANTED) me = await ask(false);
  refusedBy(me, 'me');
  return me;
}

export class QqProtocol implements UpstreamProtocol {
  async authorizationUrl(p: ActiveProvider, flow: FlowValues): Promise<URL> {
    return withParams(endpointOf(p.record, 'authorizationEndpoint') as string, {
      response_type: 'code',
      client_id: p.record.clientId,
      redirect_uri: flow.redirectUri,
      state: flow.state,
      scope: scopesOf(p.record).join(','),
    });
  }

  async complete(
    p: ActiveProvider,
    callback: URL,
    flow: FlowValues,
  ): Promise<UpstreamProfile> {
    const code = grantedCode(callback);
    const clientId = p.record.clientId;
    const token = tokenAnswer(
      await upstreamFetch(
        withParams(endpointOf(p.record, 'tokenEndpoint') as string, {
          grant_type: 'authorization_code',
          client_id: clientId,
          client_secret: p.clientSecret ?? '',
          code,
          redirect_uri: flow.redirectUri,
          fmt: 'json',
        }),
      ),
    );
    refusedBy(token, 'token');
    const accessToken = optionalText(token.access_token);
    if (!accessToken)
      throw new UpstreamError('provider', 'QQ token: no access_token');
    const api = endpointOf(p.record, 'apiBase') as string;
    const me = await whoIs(api, accessToken);
    // A token issued to another application would name another client_id: never accepted here.
    if (idText(me.client_id) !== clientId)
      throw new UpstreamError(
        'provider',
        'QQ me: the token belongs to another application',
      );
    const openid = idText(me.openid);
    if (!openid) throw new UpstreamError('provider', 'QQ me: no openid');
    const info = jsonObject(
      await upstreamFetch(
        withParams(profileUrl(p, `${api}/user/get_user_info`), {
          access_token: accessToken,
          oauth_consumer_key: clientId,
          openid,
        }),
      ),
      'QQ get_user_info',
    );
    refusedBy(info, 'get_user_info');
    const nickname = optionalText(info.nickname);
    return {
      subject: idText(me.unionid) ?? openid,
      username: nickname,
      displayName: nickname,
      emailVerified: false,
      avatarUrl: avatarUrl(
        info.figureurl_qq_2 ?? info.figureurl_qq_1 ?? info.figureurl_qq,
      ),
    };
  }
}
