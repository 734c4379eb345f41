/** The table of device-grant codes, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
export interface DeviceCodesTable {
  device_code_hash: string;
  user_code: string;
  client_id: string;
  status: string;
  user_id: number | null;
  interval: number;
  last_poll_at: number | null;
  expires_at: number;
  created_at: number;
  scope: string | null;
}

export interface DeviceTables {
  device_codes: DeviceCodesTable;
}
