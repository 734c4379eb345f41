/**
 * Failures of the Yggdrasil API in the protocol's own format (authlib-injector's
 * specification): `{ error, errorMessage }`, which launchers show to the player.
 */
export class YggdrasilError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly errorMessage: string,
    /** For a 429: whole seconds until the limit lets the client in again (`Retry-After`). */
    readonly retryAfterS?: number,
  ) {
    super(errorMessage);
  }

  get body(): { error: string; errorMessage: string } {
    return { error: this.error, errorMessage: this.errorMessage };
  }
}

export const invalidToken = () =>
  new YggdrasilError(403, 'ForbiddenOperationException', 'Invalid token.');
export const invalidCredentials = () =>
  new YggdrasilError(
    403,
    'ForbiddenOperationException',
    'Invalid credentials. Invalid username or password.',
  );
export const illegalArgument = (message: string) =>
  new YggdrasilError(400, 'IllegalArgumentException', message);
export const forbidden = (message: string) =>
  new YggdrasilError(403, 'ForbiddenOperationException', message);
/**
 * A password sign-in while /login asks for a CAPTCHA (docs/api.md §16.1), which a launcher
 * cannot show. Launchers print the message as it is, so it says what to do in both languages.
 */
export const captchaGateUp = () =>
  new YggdrasilError(
    403,
    'ForbiddenOperationException',
    '登录失败次数过多，请稍后再试，或改用游戏令牌登录。Too many failed sign-ins: try again later, or sign in with a game token.',
  );

/**
 * A banned account's sign-in. Launchers print the message as it is: both languages, and the
 * end of a timed ban (UTC, to the second) so the player knows when to come back.
 */
export function bannedAccount(bannedUntil: number | null): YggdrasilError {
  if (bannedUntil === null)
    return forbidden('账号已被封禁。This account is banned.');
  const end = new Date(bannedUntil).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return forbidden(
    `账号已被封禁，${end} 解封。This account is banned until ${end}.`,
  );
}
