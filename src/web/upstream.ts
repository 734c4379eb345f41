/**
 * Sign-in with other accounts on the pages (docs/api.md §14): the buttons `使用 {name} 登录`
 * and the calls of the flow that need the browser's binding cookie, which the v1 API calls
 * (api.ts) never send.
 */
import { call, getToken, request, type TokenEnvelope } from './api.js';
import { h } from './dom.js';
import type { FlowUrl, LinkedData, PublicProviders } from './contracts.js';
import { t } from './i18n.js';

/** A same-origin JSON POST that carries cookies (the flow's binding cookie), with an optional Bearer token. */
export async function postWithCookie<T>(
  path: string,
  body: unknown,
  bearer?: string | null,
): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/json',
  };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return request<T>(`/api/v1/auth/${path}`, {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: JSON.stringify(body ?? {}),
  });
}

export function finishUpstream(
  ticket: string,
  otp?: string,
): Promise<TokenEnvelope> {
  return postWithCookie<TokenEnvelope>('upstream/finish', {
    ticket,
    ...(otp !== undefined && { otp }),
  });
}

/** Links the waiting provider account to the account of `token`, with that account's proof (docs/api.md §10.1). */
export async function linkExisting(
  ticket: string,
  token: string,
  proof: Record<string, string>,
): Promise<LinkedData> {
  return (
    await postWithCookie<{ data: LinkedData }>(
      'upstream/link_existing',
      { ticket, ...proof },
      token,
    )
  ).data;
}

/** Starts a flow from /account (link or re-authentication): the server binds it to this browser, then the browser goes on. */
export async function startFromAccount(
  path: 'account/upstream/link' | 'account/upstream/reauth',
  body: Record<string, unknown>,
): Promise<void> {
  const { data } = await postWithCookie<{ data: FlowUrl }>(
    path,
    { ...body, next: '/account' },
    getToken(),
  );
  location.assign(data.url);
}

/** The address that starts a sign-in with provider `id`, keeping where the person was going. */
export const startUrl = (id: string, next: string | null) =>
  `/login/${encodeURIComponent(id)}${next ? `?next=${encodeURIComponent(next)}` : ''}`;

/**
 * One button per enabled provider, filled in once the list arrives; nothing is shown when
 * there are none (or the list cannot be read: the other ways to sign in still work).
 */
export function upstreamButtons(next: string | null): HTMLElement {
  const box = h('div', {
    class: 'upstream-login',
    id: 'upstream-login',
    hidden: true,
  });
  void call<{ data: PublicProviders }>(
    'GET',
    'upstream/providers',
    undefined,
    false,
  ).then(
    ({ data }) => {
      if (data.providers.length === 0) return;
      box.append(
        h('p', { class: 'separator muted small' }, t('upstream.or')),
        ...data.providers.map((p) => {
          const button = h(
            'button',
            {
              type: 'button',
              class: `secondary upstream-button upstream-${p.type}`,
              'data-provider': p.id,
            },
            t('upstream.button', { name: p.name }),
          );
          button.addEventListener('click', () =>
            location.assign(startUrl(p.id, next)),
          );
          return button;
        }),
      );
      box.hidden = false;
    },
    () => undefined,
  );
  return box;
}
