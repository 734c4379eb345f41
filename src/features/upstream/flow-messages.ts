/**
 * What the page after a provider's answer says when the sign-in did not happen (docs/api.md
 * §14.2): one clear sentence and a way back to /login, never a 500. The page gets the
 * problem's name too and says it in its own language; the Chinese text stays for clients of §14.2.
 */
import { MSG } from '../../errors/index.js';
import type { UpstreamFailure } from './protocols/index.js';

export type FlowProblem =
  | UpstreamFailure
  | 'state'
  | 'unavailable'
  | 'banned'
  | 'rateLimited'
  | 'linkedElsewhere'
  | 'alreadyLinked'
  | 'notYourLink'
  | 'registrationClosed'
  | 'emailRequired'
  | 'emailDomainRefused';

const TEXTS: Record<FlowProblem, (name: string) => string> = {
  state: () =>
    '登录请求已失效，或不是在这个浏览器中发起的。请返回登录页重新开始。',
  unavailable: () => '该登录方式不可用（可能已被管理员停用）。',
  denied: (name) => `你取消了 ${name} 登录。`,
  provider: (name) => `${name} 未能完成登录，请稍后重试。`,
  network: (name) => `暂时无法连接 ${name}，请稍后重试。`,
  notMember: (name) => `只有指定 Discord 服务器的成员才能使用 ${name} 登录。`,
  banned: () => MSG.banned,
  rateLimited: () => MSG.rateLimited,
  linkedElsewhere: (name) => `该 ${name} 账号已绑定其他账号。`,
  alreadyLinked: (name) => `你的账号已绑定过 ${name}，请先解除绑定。`,
  notYourLink: (name) =>
    `这个 ${name} 账号没有绑定到当前账号，无法用来验证身份。`,
  // docs/api.md §16.2: only an account that already exists, or is linked, can sign in this way.
  registrationClosed: () => MSG.registrationClosed,
  // The e-mail domain lists (docs/api.md §16.2) hold for these accounts too.
  emailRequired: (name) =>
    `注册需要邮箱，但 ${name} 没有提供经过验证的邮箱。请先用邮箱注册账号，再在账号页面绑定 ${name}。`,
  emailDomainRefused: () => MSG.emailDomainRefused,
};

const STATUS: Partial<Record<FlowProblem, number>> = {
  unavailable: 404,
  banned: 403,
  rateLimited: 429,
  linkedElsewhere: 409,
  alreadyLinked: 409,
  registrationClosed: 403,
  emailRequired: 403,
  emailDomainRefused: 400,
};

export interface FlowFailurePage {
  kind: 'error';
  status: number;
  message: string;
  /** Which problem, so an English page can say it in English (the message is Chinese). */
  problem: FlowProblem;
  /** The provider's name as the message gives it. */
  providerName: string;
  /** Whole seconds, for a 429's Retry-After. */
  retryAfterS?: number;
}

export function problemPage(
  problem: FlowProblem,
  providerName: string,
  retryAfterS?: number,
): FlowFailurePage {
  return {
    kind: 'error',
    status: STATUS[problem] ?? 400,
    message: TEXTS[problem](providerName),
    problem,
    providerName,
    ...(retryAfterS !== undefined && { retryAfterS }),
  };
}
