/**
 * 我的世界角色 on /account (docs/api.md §18.2): the account's Minecraft characters, with the
 * skin and cape each wears, and the forms to create, rename and delete one, to upload a skin
 * (with its arm model) or cape, and to take them off. The section stays hidden when the site
 * has Minecraft sign-in switched off (the page says so in its data-minecraft).
 */
import { ApiError, data, getToken, loginUrl, request } from '../api.js';
import type { ProfileDetail, ProfileSummary } from '../contracts.js';
import { busy, copyLine, field, form, h, input, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;
const P = 'account/minecraft/profiles';

const fail = (msg: Notice) => (err: unknown) => {
  if (needsLogin(err)) return location.replace(loginUrl());
  msg.error(messageOf(err));
};

/** The PNG goes as the request body itself, not as JSON. */
async function uploadTexture(
  id: string,
  type: 'skin' | 'cape',
  file: File,
  model: string,
): Promise<ProfileDetail> {
  const query = type === 'skin' ? `?model=${encodeURIComponent(model)}` : '';
  const res = await request<{ data: ProfileDetail }>(
    `/api/v1/auth/${P}/${id}/textures/${type}${query}`,
    {
      method: 'POST',
      credentials: 'omit',
      body: file,
      headers: {
        accept: 'application/json',
        'content-type': 'image/png',
        authorization: `Bearer ${getToken() ?? ''}`,
      },
    },
  );
  return res.data;
}

function preview(label: string, url: string | undefined): HTMLElement {
  return h(
    'figure',
    { class: 'texture-preview' },
    url
      ? h('img', { src: url, alt: label, width: '128', class: 'pixelated' })
      : h('span', { class: 'muted small' }, t('mc.notSet', { label })),
    h('figcaption', { class: 'small' }, label),
  );
}

function textureForm(
  p: ProfileDetail,
  type: 'skin' | 'cape',
  msg: Notice,
  refresh: () => Promise<void>,
): HTMLElement {
  const label = type === 'skin' ? t('mc.skin') : t('mc.cape');
  const file = h('input', {
    type: 'file',
    name: `${type}_${p.id}`,
    accept: 'image/png',
  });
  const model = h(
    'select',
    { name: `model_${p.id}` },
    h(
      'option',
      { value: 'default', selected: p.skin?.model !== 'slim' },
      t('mc.modelDefault'),
    ),
    h(
      'option',
      { value: 'slim', selected: p.skin?.model === 'slim' },
      t('mc.modelSlim'),
    ),
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'secondary small-button' },
    t('mc.upload', { label }),
  );
  const upload = form(
    [
      field(t('mc.file', { label }), file),
      type === 'skin' ? field(t('mc.armModel'), model) : null,
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const chosen = file.files?.[0];
      if (!chosen) return msg.error(t('mc.chooseFile', { label }));
      await uploadTexture(p.id, type, chosen, model.value);
      msg.ok(t('mc.updated', { label }));
      await refresh();
    },
    fail(msg),
  );
  const worn = type === 'skin' ? p.skin : p.cape;
  const remove = h(
    'button',
    { type: 'button', class: 'danger small-button' },
    t('mc.deleteTexture', { label }),
  );
  remove.addEventListener(
    'click',
    () =>
      void busy(remove, async () => {
        await data('POST', `${P}/textures/delete`, { id: p.id, type });
        msg.ok(t('mc.deletedTexture', { label }));
        await refresh();
      }).catch(fail(msg)),
  );
  const change = h(
    'button',
    { type: 'button', class: 'secondary small-button' },
    t('mc.modelOnly'),
  );
  change.addEventListener(
    'click',
    () =>
      void busy(change, async () => {
        await data('POST', `${P}/model`, { id: p.id, model: model.value });
        msg.ok(t('mc.modelUpdated'));
        await refresh();
      }).catch(fail(msg)),
  );
  return h(
    'div',
    { class: 'texture' },
    preview(label, worn?.url),
    upload,
    h(
      'div',
      { class: 'actions' },
      worn ? remove : null,
      type === 'skin' && p.skin ? change : null,
    ),
  );
}

function profileRow(
  p: ProfileDetail,
  msg: Notice,
  refresh: () => Promise<void>,
): HTMLElement {
  const name = input(`rename_${p.id}`, {
    value: p.name,
    maxlength: '16',
    autocomplete: 'off',
  });
  const rename = h(
    'button',
    { type: 'submit', class: 'secondary small-button' },
    t('mc.rename'),
  );
  const renameForm = form(
    [field(t('mc.name'), name), rename],
    rename,
    async () => {
      msg.hide();
      await data('POST', `${P}/rename`, { id: p.id, name: name.value.trim() });
      msg.ok(t('mc.renamed'));
      await refresh();
    },
    fail(msg),
  );
  const remove = h(
    'button',
    { type: 'button', class: 'danger small-button' },
    t('mc.delete'),
  );
  remove.addEventListener('click', () => {
    if (!confirm(t('mc.confirmDelete', { name: p.name }))) return;
    void busy(remove, async () => {
      await data('POST', `${P}/delete`, { id: p.id });
      msg.ok(t('mc.deleted', { name: p.name }));
      await refresh();
    }).catch(fail(msg));
  });
  return h(
    'li',
    { class: 'minecraft-profile', 'data-profile': p.id },
    h('h3', {}, p.name),
    h('div', { class: 'muted small' }, `UUID ${p.id}`),
    renameForm,
    textureForm(p, 'skin', msg, refresh),
    textureForm(p, 'cape', msg, refresh),
    remove,
  );
}

export function minecraftSection(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'plain', id: 'minecraft-profiles' });
  const name = input('minecraft_name', {
    maxlength: '16',
    autocomplete: 'off',
    placeholder: 'Steve',
  });
  const create = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('mc.create'),
  );
  const createForm = form(
    [field(t('mc.newName'), name, t('mc.nameHint')), create],
    create,
    async () => {
      msg.hide();
      await data<ProfileSummary>('POST', P, { name: name.value.trim() });
      name.value = '';
      msg.ok(t('mc.created'));
      await refresh();
    },
    fail(msg),
  );
  // The address a launcher's authlib-injector login takes (docs/minecraft.md), with a copy button.
  const apiRoot = document.body.dataset.minecraftApi ?? '';
  const section = h(
    'section',
    { id: 'minecraft', hidden: true },
    h('h2', {}, t('mc.title')),
    h('p', { class: 'muted small' }, t('mc.hint')),
    apiRoot
      ? h(
          'div',
          { class: 'field', id: 'minecraft-api' },
          h('label', {}, t('mc.apiRoot')),
          copyLine(apiRoot, t('mc.apiRoot')),
        )
      : null,
    msg.el,
    list,
    createForm,
  );
  async function refresh(): Promise<void> {
    const { profiles } = await data<{ profiles: ProfileSummary[] }>('GET', P);
    const detailed = await Promise.all(
      profiles.map((p) => data<ProfileDetail>('GET', `${P}/${p.id}`)),
    );
    list.replaceChildren(
      ...(detailed.length
        ? detailed.map((p) => profileRow(p, msg, refresh))
        : [
            h(
              'li',
              { class: 'muted small', id: 'minecraft-none' },
              t('mc.none'),
            ),
          ]),
    );
    section.hidden = false;
  }
  // The page says whether Minecraft sign-in is on (MINECRAFT); when it is off there is nothing to ask for.
  if (document.body.dataset.minecraft !== 'on') return section;
  void refresh().catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return;
    fail(msg)(err);
    section.hidden = false;
  });
  return section;
}
