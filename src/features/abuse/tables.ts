/** The tables of abuse protection, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
/** A CAPTCHA challenge whose solution was accepted once: a second use is a replay (migration 011). */
export interface CaptchaUsesTable {
  challenge_hash: string;
  expires_at: number;
}

export interface InvitesTable {
  id: string;
  code_hash: string;
  uses: number;
  used: number;
  expires_at: number | null;
  created_by: string;
  created_at: number;
}

export interface AbuseTables {
  captcha_uses: CaptchaUsesTable;
  invites: InvitesTable;
}
