import { solve } from '../helpers/captcha.js';
import type { Reply, SendOptions } from './request.js';
import { sendWith } from './request.js';

/**
 * What a registration needs besides the account's fields when the center asks for it: an
 * invite code (REGISTRATION=invite) and a solved CAPTCHA (CAPTCHA=altcha). Both are single
 * use; the codes and solutions that a registration answered 200 used up are kept, so that
 * after a fault they can be shown to be refused.
 */
const AUTH = '/api/v1/auth';
const BAD_INVITE = '邀请码无效或已用完';
const CAPTCHA_REQUIRED = '请完成人机验证';
/** The uses of a shared invite code, which one more registration than that races for. */
const SHARED_USES = 3;

/** An invite code the traffic made, and the registrations that used it. */
export interface InviteRecord {
  id: string;
  code: string;
  uses: number;
  /** Usernames whose registration sent this code, answered or not. */
  tried: string[];
  /** Usernames whose registration with this code was answered 200. */
  admitted: string[];
}

/** Sends one request of the traffic, recording it. */
export type Call = (
  base: string,
  method: string,
  path: string,
  body?: unknown,
  opts?: SendOptions,
) => Promise<Reply>;

export interface ExtrasSetup {
  adminToken: string;
  invites: boolean;
  captcha: boolean;
}

/** A fresh CAPTCHA solution from `base`, or undefined when no challenge came. */
export async function captchaSolution(
  call: Call,
  base: string,
): Promise<string | undefined> {
  const r = await call(base, 'GET', `${AUTH}/captcha`);
  return r.status === 200 ? solve(r.body.data) : undefined;
}

export class RegistrationExtras {
  readonly invites: InviteRecord[] = [];
  /** CAPTCHA solutions a registration answered 200 used up. */
  readonly captchas: string[] = [];
  private handedOut = 0;
  private shared: Promise<InviteRecord | undefined> | undefined;
  private sharedLeft = 0;

  constructor(private readonly setup: ExtrasSetup) {}

  /** Registers `username` with what the center asks for besides; undefined when that was not had. */
  async register(
    call: Call,
    base: string,
    username: string,
    password: string,
  ): Promise<Reply | undefined> {
    const fields: { invite_code?: string; captcha?: string } = {};
    let invite: InviteRecord | undefined;
    if (this.setup.invites) {
      invite = await this.invite(call, base);
      if (!invite) return undefined;
      fields.invite_code = invite.code;
    }
    if (this.setup.captcha) {
      fields.captcha = await captchaSolution(call, base);
      if (!fields.captcha) return undefined;
    }
    invite?.tried.push(username);
    const r = await call(base, 'POST', `${AUTH}/register`, {
      username,
      password,
      email: `${username}@example.com`,
      ...fields,
    });
    if (r.status === 200) {
      invite?.admitted.push(username);
      if (fields.captcha) this.captchas.push(fields.captcha);
    }
    return r;
  }

  /**
   * Every other registration gets a single-use code of its own; the others share one code
   * of SHARED_USES uses, handed out once more than that, so registrations race for it.
   */
  private async invite(
    call: Call,
    base: string,
  ): Promise<InviteRecord | undefined> {
    if (++this.handedOut % 2 === 1) return this.make(call, base, 1);
    if (!this.shared || this.sharedLeft === 0) {
      this.shared = this.make(call, base, SHARED_USES);
      this.sharedLeft = SHARED_USES + 1;
    }
    this.sharedLeft--;
    const made = this.shared;
    const invite = await made;
    if (!invite && this.shared === made) this.shared = undefined;
    return invite;
  }

  private async make(
    call: Call,
    base: string,
    uses: number,
  ): Promise<InviteRecord | undefined> {
    const r = await call(
      base,
      'POST',
      `${AUTH}/admin/invites`,
      { uses },
      { token: this.setup.adminToken },
    );
    if (r.status !== 200) return undefined;
    const invite: InviteRecord = {
      id: r.body.data.id,
      code: r.body.data.code,
      uses,
      tried: [],
      admitted: [],
    };
    this.invites.push(invite);
    return invite;
  }
}

/**
 * After a fault: no invite admitted more accounts than its uses, its count of uses is the
 * number of accounts it made, a code with no use left is refused, and no
 * CAPTCHA solution answered 200 passes again.
 */
export async function verifyRegistrationExtras(
  base: string,
  extras: RegistrationExtras,
  setup: ExtrasSetup,
  newUsername: () => string,
): Promise<string[]> {
  const problems: string[] = [];
  const call: Call = (b, method, path, body, opts) =>
    sendWith(b, method, path, body, opts ?? {});
  const admin = { token: setup.adminToken };
  const register = (fields: Record<string, unknown>) => {
    const username = newUsername();
    return call(base, 'POST', `${AUTH}/register`, {
      username,
      password: 'a password never used',
      email: `${username}@example.com`,
      ...fields,
    });
  };
  const refusal = (r: Reply, msg: string) =>
    r.status === 400 && r.body.msg === msg
      ? undefined
      : `${r.status} ${r.body.msg ?? ''}`;

  if (extras.invites.length > 0) {
    const list = await call(
      base,
      'GET',
      `${AUTH}/admin/invites`,
      undefined,
      admin,
    );
    const used = new Map<string, number>(
      (list.body?.data?.invites ?? []).map(
        (i: { id: string; used: number }) => [i.id, i.used],
      ),
    );
    for (const invite of extras.invites) {
      let made = 0;
      for (const username of invite.tried) {
        const q = `?username=${encodeURIComponent(username)}`;
        const r = await call(
          base,
          'GET',
          `${AUTH}/admin/users/detail${q}`,
          undefined,
          admin,
        );
        if (r.status === 200) made++;
        else if (r.status !== 404)
          problems.push(`user ${username}: ${r.status}`);
      }
      if (made > invite.uses)
        problems.push(
          `invite ${invite.id} of ${invite.uses} uses made ${made} accounts`,
        );
      if (used.get(invite.id) !== made)
        problems.push(
          `invite ${invite.id} counts ${used.get(invite.id)} uses for ${made} accounts`,
        );
      // No use is left once as many accounts as uses exist: one more must be refused.
      if (made < invite.uses) continue;
      const captcha = setup.captcha
        ? await captchaSolution(call, base)
        : undefined;
      const wrong = refusal(
        await register({ invite_code: invite.code, captcha }),
        BAD_INVITE,
      );
      if (wrong)
        problems.push(`used-up invite ${invite.id} honoured again: ${wrong}`);
    }
  }
  for (const captcha of extras.captchas) {
    // A code of some sort is needed to reach the CAPTCHA check; the CAPTCHA is checked first.
    const invite_code = setup.invites ? 'no-such-invite' : undefined;
    const wrong = refusal(
      await register({ captcha, invite_code }),
      CAPTCHA_REQUIRED,
    );
    if (wrong) problems.push(`CAPTCHA solution honoured twice: ${wrong}`);
  }
  return problems;
}
