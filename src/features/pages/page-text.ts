import type { Language } from '../../platform/i18n/language.js';

/** What the server itself writes into a page before the bundle runs: titles and fallbacks. */
export interface ShellText {
  readonly titles: Readonly<Record<string, string>>;
  /** `{site}` is SITE_NAME. */
  readonly noscript: string;
  readonly loading: string;
  readonly notBuilt: string;
}

/** Keyed by <body data-page>; the bundle sets the same titles once it has rendered. */
export const SHELL_TEXT: Readonly<Record<Language, ShellText>> = {
  'zh-CN': {
    titles: {
      authorize: '授权登录',
      login: '登录',
      register: '注册账号',
      reset_password: '重置密码',
      device: '设备登录',
      console: '开发者控制台',
      account: '我的账号',
      admin: '用户管理',
      upstream: '第三方登录',
      not_found: '页面不存在',
    },
    noscript: '请启用 JavaScript 后使用{site}。',
    loading: '正在加载…',
    notBuilt: '页面资源尚未构建，请运行 npm run build。',
  },
  en: {
    titles: {
      authorize: 'Authorize',
      login: 'Sign in',
      register: 'Create an account',
      reset_password: 'Reset password',
      device: 'Device sign-in',
      console: 'Developer console',
      account: 'My account',
      admin: 'User administration',
      upstream: 'Sign in with another account',
      not_found: 'Page not found',
    },
    noscript: 'Please turn on JavaScript to use {site}.',
    loading: 'Loading…',
    notBuilt: 'The page assets are not built yet: run npm run build.',
  },
};
