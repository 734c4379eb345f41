import type { ServiceContext } from './context.js';

/** Device login (SPEC §4.7, CONTRACT §6) and the game token (CONTRACT §7). */
export class DeviceService {
  constructor(private readonly ctx: ServiceContext) {}
}
