import { describe, expect, it } from 'vitest';
import {
  isActive,
  nextStatus,
  viewStatus,
} from '../../src/features/apps/app-state.js';

describe('application state machine (docs/api.md §4.3)', () => {
  it('only active is active', () => {
    expect(isActive('active')).toBe(true);
    for (const s of ['disabled', 'suspended', 'ACTIVE', ''])
      expect(isActive(s)).toBe(false);
  });
  it('views any other status as disabled', () => {
    expect(viewStatus('active')).toBe('active');
    expect(viewStatus('suspended')).toBe('disabled');
    expect(viewStatus('disabled')).toBe('disabled');
  });
  it('toggles without enabled', () => {
    expect(nextStatus('active')).toBe('disabled');
    expect(nextStatus('disabled')).toBe('active');
    expect(nextStatus('suspended')).toBe('active');
  });
  it('sets with enabled', () => {
    expect(nextStatus('active', true)).toBe('active');
    expect(nextStatus('active', false)).toBe('disabled');
    expect(nextStatus('disabled', true)).toBe('active');
    expect(nextStatus('disabled', false)).toBe('disabled');
  });
});
