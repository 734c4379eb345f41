/**
 * WeChat website sign-in (网站应用微信登录) on the Open Platform, written against its
 * documentation since no maintained Node client exists
 * (https://developers.weixin.qq.com/doc/oplatform/Website_App/WeChat_Login/Wechat_Login.html):
 * the QR page `qrconnect` with `snsapi_login`, the code exchanged at
 * `/sns/oauth2/access_token` (a GET with `appid` and `secret`), the profile from
 * `/sns/userinfo`. Errors come back with HTTP 200 and `errcode`. The subject is the
 * `unionid` when the application has one (the same person across the operator's WeChat
 * applications), else the `openid`.
 */
import { endpointOf } from '../provider-rules.js';
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

function refusedBy(body: Record<string, unknown>, what: string): void {
  if (body.errcode !== undefined && body.errcode !== 0)
    throw new UpstreamError(
      'provider',
      `WeChat ${what}: errcode ${String(body.errcode)}`,
    );
}

export class WechatProtocol implements UpstreamProtocol {
  async authorizationUrl(p: ActiveProvider, flow: FlowValues): Promise<URL> {
    const url = withParams(
      endpointOf(p.record, 'authorizationEndpoint') as string,
      {
        appid: p.record.clientId,
        redirect_uri: flow.redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state: flow.state,
      },
    );
    url.hash = 'wechat_redirect';
    return url;
  }

  async complete(p: ActiveProvider, callback: URL): Promise<UpstreamProfile> {
    const code = grantedCode(callback);
    const token = jsonObject(
      await upstreamFetch(
        withParams(endpointOf(p.record, 'tokenEndpoint') as string, {
          appid: p.record.clientId,
          secret: p.clientSecret ?? '',
          code,
          grant_type: 'authorization_code',
        }),
      ),
      'WeChat access_token',
    );
    refusedBy(token, 'access_token');
    const accessToken = optionalText(token.access_token);
    const openid = idText(token.openid);
    if (!accessToken || !openid)
      throw new UpstreamError(
        'provider',
        'WeChat access_token: no access_token or openid',
      );
    const info = jsonObject(
      await upstreamFetch(
        withParams(
          profileUrl(
            p,
            `${endpointOf(p.record, 'apiBase') as string}/sns/userinfo`,
          ),
          {
            access_token: accessToken,
            openid,
            lang: 'zh_CN',
          },
        ),
      ),
      'WeChat userinfo',
    );
    refusedBy(info, 'userinfo');
    if (idText(info.openid) !== openid)
      throw new UpstreamError('provider', 'WeChat userinfo: another openid');
    const nickname = optionalText(info.nickname);
    return {
      subject: idText(info.unionid) ?? idText(token.unionid) ?? openid,
      username: nickname,
      displayName: nickname,
      emailVerified: false,
      avatarUrl: avatarUrl(info.headimgurl),
    };
  }
}
