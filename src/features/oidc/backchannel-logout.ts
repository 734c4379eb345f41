import type { LogoutTokenSubject } from '../moderation/index.js';
import type { SigningKeys } from './keys.js';

/** Back-Channel Logout 1.0 §2.4: the one event a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT =
  'http://schemas.openid.net/event/backchannel-logout';
/** How long a logout token is valid after it is sent: enough for the client to check it, too short to replay later. */
export const LOGOUT_TOKEN_TTL_S = 120;

/** A queued logout message as the delivery loop hands it over. */
export interface QueuedLogout {
  messageId: string;
  payload: string;
}

/**
 * Turns a queued logout message (docs/api.md §12.8) into its request: a logout token signed
 * with the ID-token key at each try, so a retry after minutes still carries a valid token,
 * posted as `logout_token=<jwt>` (§2.5). The message id is the `jti`, the same on every try,
 * so the client can drop a repeat.
 */
export class LogoutTokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly issuer: string,
  ) {}

  async sign(
    subject: LogoutTokenSubject,
    jti: string,
    at: number,
  ): Promise<string> {
    const key = await this.keys.current();
    const iat = Math.floor(at / 1000);
    return key.signLogout({
      iss: this.issuer,
      aud: subject.aud,
      iat,
      exp: iat + LOGOUT_TOKEN_TTL_S,
      jti,
      sub: subject.sub,
      sid: subject.sid,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    });
  }

  async render(
    message: QueuedLogout,
    at: number,
  ): Promise<{ headers: Record<string, string>; body: string }> {
    const subject = JSON.parse(message.payload) as LogoutTokenSubject;
    const token = await this.sign(subject, message.messageId, at);
    return {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }).toString(),
    };
  }
}
