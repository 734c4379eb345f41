import type { ProviderType } from '../repository.js';
import { OAuthProtocol } from './oauth.js';
import { QqProtocol } from './qq.js';
import { SteamProtocol } from './steam.js';
import type { UpstreamProtocol } from './types.js';
import { WechatProtocol } from './wechat.js';

export type {
  ActiveProvider,
  FlowValues,
  Memberships,
  UpstreamProfile,
  UpstreamProtocol,
} from './types.js';
export { UpstreamError, type UpstreamFailure } from './types.js';
export { singleValued } from './http.js';

/** One implementation per protocol, behind the same interface. */
export function protocols(
  now: () => number,
): (type: ProviderType) => UpstreamProtocol {
  const oauth = new OAuthProtocol(now);
  const steam = new SteamProtocol();
  const qq = new QqProtocol();
  const wechat = new WechatProtocol();
  return (type) => {
    switch (type) {
      case 'steam':
        return steam;
      case 'qq':
        return qq;
      case 'wechat':
        return wechat;
      default:
        return oauth;
    }
  };
}
