import { badParam, fail } from '../../errors/index.js';
import { isValidDisplayName, isValidPassword } from '../accounts/index.js';
import { userEvent } from '../moderation/index.js';
import type { TokenEnvelope } from '../sessions/index.js';
import type { User } from '../accounts/index.js';
import type { Caller } from '../kit.js';
import type { Language } from '../../platform/i18n/language.js';
import { passwordChangedNotice } from '../sign-in/index.js';
import type { ReauthProof } from '../reauth/index.js';
import type { Authenticated } from '../sessions/index.js';
import { publicUser } from '../sessions/index.js';
import { AccountSessions } from './account-sessions.js';

export type { AccountSettingsDeps } from './account-sessions.js';

/** What a deleted account's display name becomes. */
export const DELETED_DISPLAY_NAME = '已注销用户';
/**
 * Tomb-stone name and e-mail of a deleted account: neither matches the formats accepted at
 * sign-up, so they never collide with a real account, and the old ones are free again.
 */
export const tombstone = (uid: number) => ({
  username: `deleted~${uid}`,
  email: `deleted~${uid}`,
});

/** What the signed-in user changes about their own account: name, password, sessions, deletion. */
export class AccountSettingsService extends AccountSessions {
  async rename(user: User, displayName: string, caller: Caller) {
    if (!isValidDisplayName(displayName)) throw badParam('display_name');
    const trimmed = displayName.trim();
    await this.ctx.storage.users.update(
      user.id,
      { displayName: trimmed },
      this.ctx.now(),
      [userEvent('user.updated', user, { display_name: trimmed })],
    );
    await this.ctx.audit.record('user.rename', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return publicUser({ ...user, displayName: trimmed });
  }

  /**
   * Sets a new password. By default every other sign-in ends: the cut-off kills every token
   * issued so far (those from before sessions too), and the caller gets a fresh token of its
   * own session in the answer, so only this sign-in goes on.
   */
  async changePassword(
    auth: Authenticated,
    proof: ReauthProof,
    next: string,
    endOthers: boolean,
    caller: Caller,
  ): Promise<TokenEnvelope> {
    const { user, claims } = auth;
    if (!isValidPassword(next)) throw fail('badPassword');
    await this.reauth.prove(auth, proof, caller);
    const passwordHash = await this.ctx.passwords.hash(next);
    const now = this.ctx.now();
    await this.ctx.storage.users.update(
      user.id,
      { passwordHash, ...(endOthers && { tokensValidAfter: now }) },
      now,
      [
        userEvent('user.password_changed', user),
        ...(endOthers
          ? [
              userEvent('user.sessions_revoked', user, {
                cause: 'password_change',
              }),
            ]
          : []),
      ],
    );
    const updated = {
      ...user,
      passwordHash,
      tokensValidAfter: endOthers ? now : user.tokensValidAfter,
    };
    const issued = await this.ctx.tokens.envelope(
      updated,
      claims.app,
      undefined,
      claims.sid,
    );
    if (endOthers) await this.ctx.signIns.markAllEnded(user.id, claims.sid);
    if (claims.sid === undefined)
      await this.ctx.signIns.record(issued.claims, updated, caller);
    else await this.ctx.signIns.extend(claims.sid, issued.claims.exp);
    await this.ctx.audit.record('user.password_change', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
      detail: { ended_other_sessions: endOthers },
    });
    await this.notifyPasswordChange(user, now, caller.language);
    return issued.body;
  }

  /** The owner hears of the change, with the passkeys that still sign in; a mail failure does not undo it. */
  protected async notifyPasswordChange(
    user: User,
    at: number,
    language: Language | undefined,
  ): Promise<void> {
    try {
      await this.ctx.mailer.send(
        passwordChangedNotice(
          user,
          await this.ctx.storage.passkeys.listByUser(user.id),
          at,
          language,
        ),
      );
    } catch (err) {
      this.ctx.log.warn(
        { err, uid: user.id },
        'could not queue the password change notice',
      );
    }
  }

  /**
   * Deletes the account: the row stays as a tomb-stone (so ids in the audit trail and apps
   * keep pointing somewhere) with its name, e-mail and display name replaced, password and
   * roles cleared, banned, every token cut off and its apps disabled. The username and the
   * e-mail address are free for a new account. The audit row names only the user id.
   */
  async deleteAccount(
    auth: Authenticated,
    proof: ReauthProof,
    caller: Caller,
  ): Promise<void> {
    const { user } = auth;
    // The center keeps the people who run it: an administrator leaves once another has taken admin away.
    if (user.roles.includes('admin')) throw fail('adminSelfDelete');
    await this.reauth.prove(auth, proof, caller);
    const now = this.ctx.now();
    await this.ctx.storage.users.update(
      user.id,
      {
        ...tombstone(user.id),
        displayName: DELETED_DISPLAY_NAME,
        passwordHash: '!',
        emailVerified: false,
        roles: [],
        banned: true,
        tokensValidAfter: now,
      },
      now,
      [userEvent('user.deleted', user)],
    );
    await this.ctx.signIns.forget(user.id);
    await this.signInHistory.forget(user.id);
    // The subjects linked to it may sign up again, as new people (docs/api.md §14.3).
    await this.ctx.storage.upstreamLinks.removeAllOf(user.id);
    // Its Minecraft profile names are free for others; its launcher tokens die with the ban anyway.
    await this.ctx.storage.minecraft.profiles.removeAllOf(user.id);
    await this.ctx.storage.minecraft.tokens.removeAllOf(user.id);
    for (const app of await this.ctx.storage.apps.listByOwner(user.id)) {
      if (app.status !== 'active') continue;
      await this.ctx.storage.apps.update(
        app.clientId,
        {
          status: 'disabled',
          statusReason: '所有者已注销账号',
          statusChangedAt: now,
        },
        now,
      );
    }
    await this.ctx.audit.record('user.delete', {
      actor: `uid:${user.id}`,
      target: `uid:${user.id}`,
    });
  }
}
