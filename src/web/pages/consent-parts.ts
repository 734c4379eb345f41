/** What both consent pages (v1 and OpenID Connect) show alike: the title, the app's homepage, the scopes. */
import { h } from '../dom.js';
import { t, type MessageKey } from '../i18n.js';

export const title = () => t('consent.title');

/** Only web links are rendered as links; anything else stays plain text. */
export function homepageNode(homepage: string): Node | null {
  if (!homepage) return null;
  if (/^https?:\/\//i.test(homepage))
    return h(
      'a',
      { href: homepage, target: '_blank', rel: 'noopener noreferrer' },
      homepage,
    );
  return document.createTextNode(homepage);
}

/** What the standard scopes mean, for the consent page; another scope is shown by its name alone. */
const SCOPE_KEYS: Readonly<Record<string, MessageKey>> = {
  openid: 'scope.openid',
  profile: 'scope.profile',
  email: 'scope.email',
  offline_access: 'scope.offline_access',
  roles: 'scope.roles',
};
export const scopeText = (scope: string): string =>
  Object.hasOwn(SCOPE_KEYS, scope) ? t(SCOPE_KEYS[scope]!) : '';
