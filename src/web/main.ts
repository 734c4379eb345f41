import { accountPage } from './pages/account.js';
import { adminPage } from './pages/admin.js';
import { authorizePage } from './pages/authorize.js';
import { consolePage } from './pages/console.js';
import { devicePage } from './pages/device.js';
import { loginPage } from './pages/login.js';
import { registerPage, resetPasswordPage } from './pages/register.js';
import { upstreamPage } from './pages/upstream.js';
import { errorPage } from './layout.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const pages: Record<string, () => void | Promise<void>> = {
  authorize: authorizePage,
  login: loginPage,
  register: registerPage,
  reset_password: resetPasswordPage,
  device: devicePage,
  console: consolePage,
  account: accountPage,
  admin: adminPage,
  upstream: upstreamPage,
};

/** The server names the page on <body data-page>; one bundle serves them all. */
async function start(): Promise<void> {
  const name = document.body.dataset.page ?? '';
  const page = pages[name];
  try {
    if (page) await page();
    else
      errorPage(t('notFound.title'), t('notFound.text'), [
        h('p', { class: 'links' }, h('a', { href: '/' }, t('notFound.home'))),
      ]);
  } catch {
    errorPage(t('error.title'), t('error.loadFailed'));
  }
  document.body.classList.add('ready');
}

void start();
