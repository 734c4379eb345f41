/**
 * Failures of the Yggdrasil API in the protocol's own format (authlib-injector's
 * specification): `{ error, errorMessage }`, which launchers show to the player.
 */
export class YggdrasilError extends Error {
  constructor(readonly status: number, readonly error: string, readonly errorMessage: string) {
    super(errorMessage);
  }

  get body(): { error: string; errorMessage: string } {
    return { error: this.error, errorMessage: this.errorMessage };
  }
}

export const invalidToken = () => new YggdrasilError(403, 'ForbiddenOperationException', 'Invalid token.');
export const invalidCredentials = () => new YggdrasilError(403, 'ForbiddenOperationException', 'Invalid credentials. Invalid username or password.');
export const illegalArgument = (message: string) => new YggdrasilError(400, 'IllegalArgumentException', message);
export const forbidden = (message: string) => new YggdrasilError(403, 'ForbiddenOperationException', message);
