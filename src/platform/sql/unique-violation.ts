/** A unique constraint was hit; `field` names the public field (username, email, client_id, user_code). */
export class UniqueViolation extends Error {
  constructor(readonly field: string) {
    super(`unique violation: ${field}`);
    this.name = 'UniqueViolation';
  }
}
