/**
 * The roles a sign-in provider gives (docs/upstream.md "Roles from the provider"): the form's
 * Discord server, claim name and map `{"upstream":"role",…}` as JSON, and beside each provider
 * a summary of its map and its last failure.
 */
import type { ProviderView } from '../contracts.js';
import { field, formatTime, h, input } from '../dom.js';
import { t } from '../i18n.js';

/** The fields, and the values they send (an empty one clears a setting on a change). */
export function roleMapFields(editing?: ProviderView) {
  const map = editing?.role_map ?? {};
  const mapBox = h('textarea', {
    name: 'provider_role_map',
    id: 'f-provider_role_map',
    rows: '3',
    spellcheck: false,
    placeholder: '{"1234567890": "moderator", "acme/staff": "staff"}',
  });
  mapBox.value = Object.keys(map).length ? JSON.stringify(map, null, 1) : '';
  const guild = input('provider_guild_id', {
    value: editing?.guild_id ?? undefined,
    autocomplete: 'off',
  });
  const claim = input('provider_role_claim', {
    value: editing?.role_claim ?? undefined,
    autocomplete: 'off',
    placeholder: 'groups',
  });
  const section = h(
    'fieldset',
    { class: 'role-map' },
    h('legend', {}, t('providers.rolesTitle')),
    h('p', { class: 'muted small' }, t('providers.rolesIntro')),
    field(t('providers.roleMap'), mapBox, t('providers.roleMapHint')),
    field(t('providers.roleGuild'), guild, t('providers.roleGuildHint')),
    field(t('providers.roleClaim'), claim, t('providers.roleClaimHint')),
  );
  const values = (changing: boolean): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, el] of [
      ['role_map', mapBox],
      ['guild_id', guild],
      ['role_claim', claim],
    ] as const) {
      const value = el.value.trim();
      if (value !== '' || changing) out[name] = value;
    }
    return out;
  };
  return { section, values };
}

/** Beside a provider: the roles it gives and its last failure. */
export function providerStatus(p: ProviderView): HTMLElement[] {
  const out: HTMLElement[] = [];
  const entries = Object.entries(p.role_map);
  if (entries.length)
    out.push(
      h(
        'div',
        { class: 'muted small', 'data-role-map': p.id },
        t('providers.rolesSummary', {
          map: entries.map(([from, role]) => `${from} → ${role}`).join(', '),
        }),
      ),
    );
  if (p.last_error)
    out.push(
      h(
        'div',
        { class: 'notice error small', 'data-last-error': p.id },
        t('providers.lastError', {
          time: formatTime(p.last_error.at),
          message: p.last_error.message,
        }),
      ),
    );
  return out;
}
