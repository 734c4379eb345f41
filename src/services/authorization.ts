import type { ServiceContext } from './context.js';

/** client_info, POST /authorize and exchange (SPEC §4.2–4.4, CONTRACT §4). */
export class AuthorizationService {
  constructor(private readonly ctx: ServiceContext) {}
}
