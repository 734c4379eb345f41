/** The application state machine of docs/api.md §4.3: active ⇄ disabled; any other status is disabled. */

/** The two states an application can be in; a stored status other than `active` reads as disabled. */
export type AppStatus = 'active' | 'disabled';

export function isActive(status: string): boolean {
  return status === 'active';
}

/** The status shown in app views: exactly `active` or `disabled`. */
export function viewStatus(status: string): AppStatus {
  return isActive(status) ? 'active' : 'disabled';
}

/** `apps/disable`: `enabled` sets the state; without it the endpoint toggles. */
export function nextStatus(current: string, enabled?: boolean): AppStatus {
  if (enabled !== undefined) return enabled ? 'active' : 'disabled';
  return isActive(current) ? 'disabled' : 'active';
}
