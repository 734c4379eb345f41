/** The admin console's views beside user search, chosen by `?view=`. */
import type { currentUser } from '../api.js';
import { h, notice } from '../dom.js';
import { render } from '../layout.js';
import {
  adminTabs,
  appsView,
  auditView,
  dashboardView,
  userDetailView,
} from './admin-console.js';
import { providersView } from './admin-providers.js';
import { invitesView } from './admin-invites.js';
import { webhooksView } from './admin-webhooks.js';
import { rolesView } from './admin-roles.js';
import { t } from '../i18n.js';

/** The views beside user search, chosen by `?view=`. */
export async function otherView(
  view: string,
  params: URLSearchParams,
  me: NonNullable<Awaited<ReturnType<typeof currentUser>>>,
): Promise<void> {
  const msg = notice();
  const titles: Record<string, string> = {
    dashboard: t('admin.overview'),
    user: t('admin.userDetails'),
    apps: t('admin.appsTitle'),
    providers: t('admin.providers'),
    invites: t('admin.invites'),
    webhooks: t('admin.webhooks'),
    audit: t('admin.audit'),
    roles: t('admin.roles'),
  };
  const body =
    view === 'dashboard'
      ? await dashboardView(msg)
      : view === 'user'
        ? await userDetailView(params.get('username') ?? '', msg)
        : view === 'apps'
          ? appsView(msg, params.get('q') ?? '')
          : view === 'providers'
            ? providersView(msg)
            : view === 'invites'
              ? invitesView(msg)
              : view === 'webhooks'
                ? webhooksView(msg)
                : view === 'audit'
                  ? auditView(msg)
                  : view === 'roles'
                    ? rolesView(msg)
                    : h('p', { class: 'notice error' }, t('admin.noSuchView'));
  render(
    titles[view] ?? t('admin.admin'),
    [adminTabs(view === 'user' ? '' : view), msg.el, body],
    { me, wide: true },
  );
}
