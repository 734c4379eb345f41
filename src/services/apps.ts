import type { ServiceContext } from './context.js';

/** Application self-management (CONTRACT §3). */
export class AppService {
  constructor(private readonly ctx: ServiceContext) {}
}
