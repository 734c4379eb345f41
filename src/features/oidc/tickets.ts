import { hkdfSync } from 'node:crypto';
import {
  hmacJwtKey,
  jwtSigner,
  verifyJwt,
  type HmacJwtKey,
} from '../../platform/jwt/jwt.js';
import type { AuthorizationRequest } from './authorize-rules.js';

/** How long a person has to sign in and consent before the request must start over. */
export const TICKET_TTL_SECONDS = 600;
const TICKET_TYP = 'ac-authz-ticket';

/** A validated authorization request as it travels through the sign-in and consent pages. */
export interface Ticket {
  request: AuthorizationRequest;
  /** When the request arrived (ms): a fresh sign-in must be later than this. */
  requestedAt: number;
  /** prompt=login or max_age exceeded: the session that existed at the request does not count. */
  freshLogin: boolean;
}

/**
 * Tickets are HS256 JWTs under a key derived from JWT_SECRET for this purpose only, so
 * they need no table, work on every instance, and can never pass as access tokens.
 */
export class Tickets {
  private readonly key: HmacJwtKey;
  private readonly sign: (claims: object) => Promise<string>;

  constructor(
    jwtSecret: string,
    private readonly issuer: string,
    private readonly now: () => number,
  ) {
    this.key = hmacJwtKey(
      new Uint8Array(
        hkdfSync(
          'sha256',
          jwtSecret,
          '',
          'account-center oidc authorization ticket',
          32,
        ),
      ),
    );
    this.sign = jwtSigner(this.key, TICKET_TYP);
  }

  async issue(ticket: Ticket): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return this.sign({
      req: ticket.request,
      rat: ticket.requestedAt,
      fresh: ticket.freshLogin,
      iss: this.issuer,
      iat,
      exp: iat + TICKET_TTL_SECONDS,
    });
  }

  /** The ticket, or undefined when it is forged, expired or not a ticket at all. */
  async open(raw: unknown): Promise<Ticket | undefined> {
    if (typeof raw !== 'string' || raw.length === 0 || raw.length > 16_384)
      return undefined;
    try {
      const payload = await verifyJwt(raw, this.key, {
        issuer: this.issuer,
        typ: TICKET_TYP,
        nowMs: this.now(),
      });
      const { req, rat, fresh } = payload as {
        req?: AuthorizationRequest;
        rat?: unknown;
        fresh?: unknown;
      };
      if (!req || typeof req.clientId !== 'string' || typeof rat !== 'number')
        return undefined;
      return { request: req, requestedAt: rat, freshLogin: fresh === true };
    } catch {
      return undefined;
    }
  }
}
