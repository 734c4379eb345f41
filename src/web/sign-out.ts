/** Signing out, shared by the header menu and /account: the token, then the browser session cookie. */
import { ApiError, call, clearToken } from './api.js';
import { endBrowserSession } from './oidc.js';

/** Ends this sign-in (or, with `everywhere`, all of them) and goes to the sign-in page. */
export async function signOut(everywhere = false): Promise<void> {
  try {
    await call('POST', 'logout', everywhere ? { all: true } : {});
  } catch (err) {
    // A token the server no longer accepts is as good as signed out; any other failure is shown.
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  }
  clearToken();
  await endBrowserSession();
  location.replace('/login');
}
