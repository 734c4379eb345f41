import type { Kysely, Selectable } from 'kysely';
import type { DeviceTables, DeviceCodesTable } from './tables.js';
import type { DeviceCode, DeviceCodeRepo, DeviceStatus } from './repository.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { num } from '../../platform/sql/columns.js';

function toDevice(r: Selectable<DeviceCodesTable>): DeviceCode {
  return {
    deviceCodeHash: r.device_code_hash,
    userCode: r.user_code,
    clientId: r.client_id,
    status: r.status as DeviceStatus,
    userId: num(r.user_id),
    interval: Number(r.interval),
    lastPollAt: num(r.last_poll_at),
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
    scope: r.scope,
  };
}

export class SqlDeviceCodeRepo implements DeviceCodeRepo {
  constructor(private readonly db: Kysely<DeviceTables>) {}

  async create(c: Parameters<DeviceCodeRepo['create']>[0]): Promise<void> {
    try {
      await this.db
        .insertInto('device_codes')
        .values({
          device_code_hash: c.deviceCodeHash,
          user_code: c.userCode,
          client_id: c.clientId,
          status: 'pending',
          interval: c.interval,
          expires_at: c.expiresAt,
          created_at: c.createdAt,
          scope: c.scope ?? null,
        })
        .execute();
    } catch (err) {
      mapUnique(err);
    }
  }

  async releaseUserCode(userCode: string, now: number): Promise<void> {
    await this.db
      .deleteFrom('device_codes')
      .where('user_code', '=', userCode)
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb('status', 'in', ['used', 'denied']),
        ]),
      )
      .execute();
  }

  async findByHash(h: string): Promise<DeviceCode | undefined> {
    const r = await this.db
      .selectFrom('device_codes')
      .selectAll()
      .where('device_code_hash', '=', h)
      .executeTakeFirst();
    return r && toDevice(r);
  }

  async findLiveByUserCode(
    userCode: string,
    now: number,
  ): Promise<DeviceCode | undefined> {
    const r = await this.db
      .selectFrom('device_codes')
      .selectAll()
      .where('user_code', '=', userCode)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return r && toDevice(r);
  }

  async transition(
    h: string,
    from: DeviceStatus,
    to: DeviceStatus,
    userId?: number,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('device_codes')
      .set({ status: to, ...(userId !== undefined && { user_id: userId }) })
      .where('device_code_hash', '=', h)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async recordPoll(h: string, now: number, interval: number): Promise<void> {
    await this.db
      .updateTable('device_codes')
      .set({ last_poll_at: now, interval })
      .where('device_code_hash', '=', h)
      .execute();
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('device_codes')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
