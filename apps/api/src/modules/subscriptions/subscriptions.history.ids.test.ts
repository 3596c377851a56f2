import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { orderedUuid } from './subscriptions.history.ids.js';

describe('orderedUuid', () => {
  it('makes valid version 7 UUIDs that sort in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => orderedUuid(1_700_000_000_000));
    for (const id of ids.slice(0, 10)) expect(z.uuid().safeParse(id).success).toBe(true);
    expect(ids[0]![14]).toBe('7');
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the order when the clock goes back', () => {
    const first = orderedUuid(1_800_000_000_000);
    const second = orderedUuid(1_799_999_999_000);
    expect(second > first).toBe(true);
  });
});
