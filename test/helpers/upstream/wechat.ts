/**
 * A stand-in for WeChat website sign-in (网站应用微信登录) on the Open Platform, answering as
 * documented: https://developers.weixin.qq.com/doc/oplatform/Website_App/WeChat_Login/Wechat_Login.html
 * (`qrconnect` with `snsapi_login`; a refusal comes back with the state and no code;
 * `/sns/oauth2/access_token` and `/sns/userinfo` answer JSON as text/plain, errors with
 * HTTP 200 and `errcode`/`errmsg`; `unionid` when the app is bound to an Open Platform account).
 */
import {
  json,
  redirect,
  StandIn,
  text,
  withQuery,
  type Person,
} from './stand-in.js';

export interface WechatPerson extends Person {
  /** The openid of this person for the stand-in's app. */
  id: string;
  unionid?: string;
  nickname: string;
}

export const WECHAT_CLIENT = {
  id: 'wx0123456789abcdef',
  secret: 'wechatstandinsecret0123456789abc',
};

const plain = 'text/plain';

export async function startWechat(): Promise<StandIn> {
  const s: StandIn = new StandIn({
    'GET /connect/qrconnect': (req, res) => {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (
        q.get('appid') !== WECHAT_CLIENT.id ||
        q.get('scope') !== 'snsapi_login' ||
        q.get('response_type') !== 'code'
      )
        return text(res, 200, '参数错误');
      if (s.declines)
        return redirect(
          res,
          withQuery(redirectUri, { state: q.get('state') ?? undefined }),
        );
      redirect(
        res,
        withQuery(redirectUri, {
          code: s.issueCode(WECHAT_CLIENT.id, redirectUri, 'snsapi_login'),
          state: q.get('state') ?? undefined,
        }),
      );
    },
    'GET /sns/oauth2/access_token': (req, res) => {
      const q = req.url.searchParams;
      if (
        q.get('appid') !== WECHAT_CLIENT.id ||
        q.get('secret') !== WECHAT_CLIENT.secret
      )
        return json(
          res,
          200,
          { errcode: 40125, errmsg: 'invalid appsecret' },
          plain,
        );
      const issued = s.takeCode(q.get('code'));
      if (!issued || q.get('grant_type') !== 'authorization_code')
        return json(
          res,
          200,
          { errcode: 40029, errmsg: 'invalid code' },
          plain,
        );
      const p = issued.person as WechatPerson;
      json(
        res,
        200,
        {
          access_token: s.issueToken(p, 'snsapi_login'),
          expires_in: 7200,
          refresh_token: 'refresh-not-used',
          openid: p.id,
          scope: 'snsapi_login',
          ...(p.unionid && { unionid: p.unionid }),
        },
        plain,
      );
    },
    'GET /sns/userinfo': (req, res) => {
      const q = req.url.searchParams;
      const t = s.tokens.get(q.get('access_token') ?? '');
      if (!t || q.get('openid') !== t.person.id)
        return json(
          res,
          200,
          {
            errcode: 40001,
            errmsg: 'invalid credential, access_token is invalid or not latest',
          },
          plain,
        );
      const p = t.person as WechatPerson;
      json(
        res,
        200,
        {
          openid: p.id,
          nickname: p.nickname,
          sex: 1,
          province: '',
          city: '',
          country: 'CN',
          headimgurl: `https://thirdwx.qlogo.cn/mmopen/standin/${p.id}/132`,
          privilege: [],
          ...(p.unionid && { unionid: p.unionid }),
        },
        plain,
      );
    },
  });
  return s.start();
}
