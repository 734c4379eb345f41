import { call, currentUser, data, loginUrl, type Me } from '../api.js';
import { busy, h, notice } from '../dom.js';
import { errorPage, messageOf, needsLogin, render } from '../layout.js';
import type { ClientInfo, IssuedCode } from '../contracts.js';
import { t } from '../i18n.js';
import { readable } from '../field-labels.js';
import { homepageNode, title } from './consent-parts.js';
import { ticketConsent } from './oidc-consent.js';

/** The scope names the page shows: the requested ones, else everything the app may ask for. */
function requestedScopes(raw: string | null, info: ClientInfo): string[] {
  const asked = (raw ?? '').split(/[ +]+/).filter(Boolean);
  return [...new Set(asked.length ? asked : info.scopes)];
}

/** Appends query parameters the way the server builds redirect_url (& when a query exists). */
function withQuery(uri: string, params: Record<string, string | null>): string {
  const q = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return uri + (uri.includes('?') ? '&' : '?') + q;
}

export async function authorizePage(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const ticket = q.get('ticket');
  if (ticket) return ticketConsent(ticket);
  const clientId = q.get('client_id');
  const redirectUri = q.get('redirect_uri');
  const state = q.get('state');
  if (!clientId || !redirectUri) {
    errorPage(
      title(),
      t('consent.missingParam', {
        name: !clientId ? 'client_id' : 'redirect_uri',
      }),
    );
    return;
  }
  let info: ClientInfo;
  try {
    info = await data<ClientInfo>('POST', 'client_info', {
      client_id: clientId,
      redirect_uri: redirectUri,
    });
  } catch (err) {
    errorPage(title(), messageOf(err));
    return;
  }
  // From here on a problem is shown on this page: an unchecked redirect_uri is never visited.
  if (!info.redirect_ok)
    return errorPage(title(), readable('回调地址不在白名单内'));
  if (state === null)
    return errorPage(title(), t('consent.missingParam', { name: 'state' }));
  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method');
  if (info.pkce_required && !challenge)
    return errorPage(
      title(),
      readable('公开客户端必须提供 code_challenge(PKCE)'),
    );
  if ((challenge || method) && method !== 'S256')
    return errorPage(title(), readable('仅支持 code_challenge_method=S256'));

  let me: Me | null;
  try {
    me = await currentUser();
  } catch (err) {
    return errorPage(title(), messageOf(err));
  }
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  consent(info, me, q);
}

function consent(info: ClientInfo, me: Me, q: URLSearchParams): void {
  const redirectUri = q.get('redirect_uri') as string;
  const state = q.get('state');
  const scopes = requestedScopes(q.get('scope'), info);
  const msg = notice();
  const agree = h(
    'button',
    { type: 'button', class: 'primary', id: 'agree' },
    t('consent.agree'),
  );
  const deny = h(
    'button',
    { type: 'button', class: 'secondary', id: 'deny' },
    t('consent.deny'),
  );

  agree.addEventListener(
    'click',
    () =>
      void busy(agree, async () => {
        msg.hide();
        const body: Record<string, string> = {
          client_id: info.client_id,
          redirect_uri: redirectUri,
        };
        for (const key of [
          'state',
          'scope',
          'code_challenge',
          'code_challenge_method',
        ]) {
          const v = q.get(key);
          if (v !== null && v !== '') body[key] = v;
        }
        try {
          const res = await call<{ data: IssuedCode }>(
            'POST',
            'authorize',
            body,
          );
          deny.disabled = true;
          location.assign(res.data.redirect_url);
        } catch (err) {
          if (needsLogin(err)) return location.replace(loginUrl());
          msg.error(messageOf(err));
        }
      }),
  );
  deny.addEventListener('click', () => {
    agree.disabled = true;
    deny.disabled = true;
    location.assign(withQuery(redirectUri, { error: 'access_denied', state }));
  });

  const scopeList = scopes.length
    ? h(
        'ul',
        { class: 'scopes' },
        ...scopes.map((s) => h('li', {}, h('code', {}, s))),
      )
    : h('p', { class: 'muted' }, t('consent.basicProfile'));
  render(title(), [
    h(
      'div',
      { class: 'app-head' },
      h(
        'div',
        { class: 'app-icon', 'aria-hidden': 'true' },
        (info.display_name || info.client_id).slice(0, 1).toUpperCase(),
      ),
      h(
        'div',
        {},
        h(
          'p',
          { class: 'app-name', id: 'app-name' },
          info.display_name || info.client_id,
        ),
        h(
          'p',
          { class: 'muted small' },
          homepageNode(info.homepage) ?? info.client_id,
        ),
      ),
    ),
    h('p', {}, t('consent.asks', { app: info.display_name || info.client_id })),
    scopeList,
    h(
      'p',
      { class: 'muted small' },
      t('consent.currentAccount'),
      h('strong', { id: 'current-user' }, me.display_name || me.username),
      t('consent.usernameAside', { username: me.username }),
    ),
    msg.el,
    h('div', { class: 'actions' }, agree, deny),
    h(
      'p',
      { class: 'muted small' },
      t('consent.returnTo'),
      h('code', { class: 'break' }, redirectUri),
    ),
    h(
      'p',
      { class: 'links' },
      h(
        'a',
        {
          href: `/login?switch=1&next=${encodeURIComponent(location.pathname + location.search)}`,
          id: 'switch-account',
        },
        t('consent.switchAccount'),
      ),
    ),
  ]);
}
