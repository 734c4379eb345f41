/** Repository interfaces of device codes: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

export type DeviceStatus = 'pending' | 'approved' | 'denied' | 'used';

export interface DeviceCode {
  deviceCodeHash: string;
  userCode: string;
  clientId: string;
  status: DeviceStatus;
  userId: number | null;
  interval: number;
  lastPollAt: number | null;
  expiresAt: number;
  createdAt: number;
  /** The scope asked at /oauth/device_authorization; null for the v1 API's device flow. */
  scope: string | null;
}

export interface DeviceCodeRepo {
  /** Throws `UniqueViolation('user_code')` when a row with that user code exists. */
  create(
    code: Omit<DeviceCode, 'status' | 'userId' | 'lastPollAt' | 'scope'> & {
      scope?: string | null;
    },
  ): Promise<void>;
  /** Deletes rows holding `userCode` that are no longer live, so the code can be reused. */
  releaseUserCode(userCode: string, now: number): Promise<void>;
  findByHash(deviceCodeHash: string): Promise<DeviceCode | undefined>;
  findLiveByUserCode(
    userCode: string,
    now: number,
  ): Promise<DeviceCode | undefined>;
  /** Conditional transition: only from `from`; returns whether this caller made it. */
  transition(
    deviceCodeHash: string,
    from: DeviceStatus,
    to: DeviceStatus,
    userId?: number,
  ): Promise<boolean>;
  recordPoll(
    deviceCodeHash: string,
    now: number,
    interval: number,
  ): Promise<void>;
  purgeExpired(before: number): Promise<number>;
}
