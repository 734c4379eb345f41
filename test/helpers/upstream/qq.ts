/**
 * A stand-in for QQ Connect (QQ 互联) website sign-in, answering as documented:
 * https://wiki.connect.qq.com/使用authorization_code获取access_token (a GET with the secret;
 * `fmt=json` for JSON, `key=value&…` otherwise; errors with HTTP 200 and `error`),
 * https://wiki.connect.qq.com/获取用户openid_oauth2-0 (`client_id` and `openid`, `unionid`
 * with `unionid=1` when the app has it; JSONP `callback( … );` without `fmt=json`), the
 * UnionID section of https://wiki.connect.qq.com/概念和术语 (an app without the unionid
 * permission is answered error 100048 `companyid not set` when it asks with `unionid=1`) and
 * https://wiki.connect.qq.com/get_user_info (`ret` 0 and `nickname`, `figureurl_qq_*`).
 */
import {
  json,
  redirect,
  StandIn,
  text,
  withQuery,
  type Person,
} from './stand-in.js';

export interface QqPerson extends Person {
  /** The openid of this person for the stand-in's app. */
  id: string;
  unionid?: string;
  nickname: string;
}

export const QQ_CLIENT = {
  id: '101000001',
  secret: 'qqstandinappkey0123456789abcdef',
};

export interface QqStandIn extends StandIn {
  /** Whether the app was granted unionid (QQ 互联's 申请unionid); without it `unionid=1` is an error. */
  unionidGranted: boolean;
}

export async function startQq(): Promise<QqStandIn> {
  const s: StandIn = new StandIn({
    'GET /oauth2.0/authorize': (req, res) => {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (
        q.get('client_id') !== QQ_CLIENT.id ||
        q.get('response_type') !== 'code'
      )
        return text(res, 200, 'which: 100008 client id is not exist');
      // Declining at QQ's page closes it: the callback gets the state and no code.
      if (s.declines)
        return redirect(
          res,
          withQuery(redirectUri, { state: q.get('state') ?? undefined }),
        );
      redirect(
        res,
        withQuery(redirectUri, {
          code: s.issueCode(
            QQ_CLIENT.id,
            redirectUri,
            q.get('scope') ?? 'get_user_info',
          ),
          state: q.get('state') ?? undefined,
        }),
      );
    },
    'GET /oauth2.0/token': (req, res) => {
      const q = req.url.searchParams;
      const fmtJson = q.get('fmt') === 'json';
      const refuse = (error: number, description: string) =>
        fmtJson
          ? json(res, 200, { error, error_description: description })
          : text(
              res,
              200,
              `callback( {"error":${error},"error_description":"${description}"} );`,
            );
      if (q.get('grant_type') !== 'authorization_code')
        return refuse(100000, 'param grant_type is wrong or lost');
      if (
        q.get('client_id') !== QQ_CLIENT.id ||
        q.get('client_secret') !== QQ_CLIENT.secret
      )
        return refuse(100016, 'access token check failed');
      const issued = s.takeCode(q.get('code'));
      if (!issued || issued.redirectUri !== q.get('redirect_uri'))
        return refuse(100019, 'code to access token error');
      const token = s.issueToken(issued.person, issued.scope);
      if (fmtJson)
        return json(res, 200, {
          access_token: token,
          expires_in: '7776000',
          refresh_token: 'refresh-not-used',
        });
      text(
        res,
        200,
        `access_token=${token}&expires_in=7776000&refresh_token=refresh-not-used`,
      );
    },
    'GET /oauth2.0/me': (req, res) => {
      const q = req.url.searchParams;
      const t = s.tokens.get(q.get('access_token') ?? '');
      const body =
        t && q.get('unionid') === '1' && !qq.unionidGranted
          ? { error: 100048, error_description: 'companyid not set' }
          : t
            ? {
                client_id: QQ_CLIENT.id,
                openid: t.person.id,
                ...(q.get('unionid') === '1' &&
                  (t.person as QqPerson).unionid && {
                    unionid: (t.person as QqPerson).unionid,
                  }),
              }
            : { error: 100016, error_description: 'access token check failed' };
      if (q.get('fmt') === 'json') return json(res, 200, body);
      text(res, 200, `callback( ${JSON.stringify(body)} );`);
    },
    'GET /user/get_user_info': (req, res) => {
      const q = req.url.searchParams;
      const t = s.tokens.get(q.get('access_token') ?? '');
      if (
        !t ||
        q.get('oauth_consumer_key') !== QQ_CLIENT.id ||
        q.get('openid') !== t.person.id
      )
        return json(res, 200, { ret: 1002, msg: '请先登录' });
      const p = t.person as QqPerson;
      const avatar = (size: number) =>
        `http://thirdqq.qlogo.cn/ek_qqapp/standin/${p.id}/${size}`;
      json(res, 200, {
        ret: 0,
        msg: '',
        is_lost: 0,
        nickname: p.nickname,
        gender: '男',
        gender_type: 1,
        province: '',
        city: '',
        year: '2000',
        figureurl: avatar(30),
        figureurl_1: avatar(50),
        figureurl_2: avatar(100),
        figureurl_qq_1: avatar(40),
        figureurl_qq_2: avatar(100),
        figureurl_qq: avatar(640),
        is_yellow_vip: '0',
        vip: '0',
        yellow_vip_level: '0',
        level: '0',
        is_yellow_year_vip: '0',
      });
    },
  });
  const qq = Object.assign(s, { unionidGranted: true }) as QqStandIn;
  await s.start();
  return qq;
}
