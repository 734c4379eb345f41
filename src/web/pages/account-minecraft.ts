/**
 * 我的世界角色 on /account (docs/api.md §18.2): the account's Minecraft characters, with the
 * skin and cape each wears, and the forms to create, rename and delete one, to upload a skin
 * (with its arm model) or cape, and to take them off. The section stays hidden when the site
 * has Minecraft sign-in switched off (its API answers 404).
 */
import { ApiError, data, getToken, loginUrl, request } from '../api.js';
import type { ProfileDetail, ProfileSummary } from '../contracts.js';
import { busy, field, form, h, input, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';

type Notice = ReturnType<typeof notice>;
const P = 'account/minecraft/profiles';

const fail = (msg: Notice) => (err: unknown) => {
  if (needsLogin(err)) return location.replace(loginUrl());
  msg.error(messageOf(err));
};

/** The PNG goes as the request body itself, not as JSON. */
async function uploadTexture(id: string, type: 'skin' | 'cape', file: File, model: string): Promise<ProfileDetail> {
  const query = type === 'skin' ? `?model=${encodeURIComponent(model)}` : '';
  const res = await request<{ data: ProfileDetail }>(`/api/v1/auth/${P}/${id}/textures/${type}${query}`, {
    method: 'POST', credentials: 'omit', body: file,
    headers: { accept: 'application/json', 'content-type': 'image/png', authorization: `Bearer ${getToken() ?? ''}` },
  });
  return res.data;
}

function preview(label: string, url: string | undefined): HTMLElement {
  return h('figure', { class: 'texture-preview' },
    url ? h('img', { src: url, alt: label, width: '128', class: 'pixelated' }) : h('span', { class: 'muted small' }, `未设置${label}`),
    h('figcaption', { class: 'small' }, label));
}

function textureForm(p: ProfileDetail, type: 'skin' | 'cape', msg: Notice, refresh: () => Promise<void>): HTMLElement {
  const label = type === 'skin' ? '皮肤' : '披风';
  const file = h('input', { type: 'file', name: `${type}_${p.id}`, accept: 'image/png' });
  const model = h('select', { name: `model_${p.id}` },
    h('option', { value: 'default', selected: p.skin?.model !== 'slim' }, '默认（Steve）'),
    h('option', { value: 'slim', selected: p.skin?.model === 'slim' }, '纤细（Alex）'));
  const submit = h('button', { type: 'submit', class: 'secondary small-button' }, `上传${label}`);
  const upload = form([field(`${label}文件（PNG）`, file), type === 'skin' ? field('手臂模型', model) : null, submit], submit, async () => {
    msg.hide();
    const chosen = file.files?.[0];
    if (!chosen) return msg.error(`请选择${label}文件`);
    await uploadTexture(p.id, type, chosen, model.value);
    msg.ok(`已更新${label}`);
    await refresh();
  }, fail(msg));
  const worn = type === 'skin' ? p.skin : p.cape;
  const remove = h('button', { type: 'button', class: 'danger small-button' }, `删除${label}`);
  remove.addEventListener('click', () => void busy(remove, async () => {
    await data('POST', `${P}/textures/delete`, { id: p.id, type });
    msg.ok(`已删除${label}`);
    await refresh();
  }).catch(fail(msg)));
  const change = h('button', { type: 'button', class: 'secondary small-button' }, '只改模型');
  change.addEventListener('click', () => void busy(change, async () => {
    await data('POST', `${P}/model`, { id: p.id, model: model.value });
    msg.ok('已更新手臂模型');
    await refresh();
  }).catch(fail(msg)));
  return h('div', { class: 'texture' }, preview(label, worn?.url), upload,
    h('div', { class: 'actions' }, worn ? remove : null, type === 'skin' && p.skin ? change : null));
}

function profileRow(p: ProfileDetail, msg: Notice, refresh: () => Promise<void>): HTMLElement {
  const name = input(`rename_${p.id}`, { value: p.name, maxlength: '16', autocomplete: 'off' });
  const rename = h('button', { type: 'submit', class: 'secondary small-button' }, '改名');
  const renameForm = form([field('角色名', name), rename], rename, async () => {
    msg.hide();
    await data('POST', `${P}/rename`, { id: p.id, name: name.value.trim() });
    msg.ok('已改名');
    await refresh();
  }, fail(msg));
  const remove = h('button', { type: 'button', class: 'danger small-button' }, '删除角色');
  remove.addEventListener('click', () => {
    if (!confirm(`删除角色 ${p.name}？用它登录的启动器会被登出。`)) return;
    void busy(remove, async () => {
      await data('POST', `${P}/delete`, { id: p.id });
      msg.ok(`已删除角色 ${p.name}`);
      await refresh();
    }).catch(fail(msg));
  });
  return h('li', { class: 'minecraft-profile', 'data-profile': p.id },
    h('h3', {}, p.name), h('div', { class: 'muted small' }, `UUID ${p.id}`),
    renameForm, textureForm(p, 'skin', msg, refresh), textureForm(p, 'cape', msg, refresh), remove);
}

export function minecraftSection(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'plain', id: 'minecraft-profiles' });
  const name = input('minecraft_name', { maxlength: '16', autocomplete: 'off', placeholder: 'Steve' });
  const create = h('button', { type: 'submit', class: 'primary' }, '创建角色');
  const createForm = form([field('新角色名', name, '1 到 16 位字母、数字或下划线，全站唯一（不分大小写）'), create], create, async () => {
    msg.hide();
    await data<ProfileSummary>('POST', P, { name: name.value.trim() });
    name.value = '';
    msg.ok('已创建角色');
    await refresh();
  }, fail(msg));
  const section = h('section', { id: 'minecraft', hidden: true }, h('h2', {}, '我的世界角色'),
    h('p', { class: 'muted small' }, '在启动器的外置登录（authlib-injector）中填写本站地址。开启了两步验证的账号请用“游戏令牌”代替密码。'),
    msg.el, list, createForm);
  async function refresh(): Promise<void> {
    const { profiles } = await data<{ profiles: ProfileSummary[] }>('GET', P);
    const detailed = await Promise.all(profiles.map((p) => data<ProfileDetail>('GET', `${P}/${p.id}`)));
    list.replaceChildren(...(detailed.length ? detailed.map((p) => profileRow(p, msg, refresh)) : [h('li', { class: 'muted small', id: 'minecraft-none' }, '还没有角色。')]));
    section.hidden = false;
  }
  void refresh().catch((err: unknown) => {
    // Minecraft sign-in is off on this site: nothing to show.
    if (err instanceof ApiError && err.status === 404) return;
    fail(msg)(err);
    section.hidden = false;
  });
  return section;
}
