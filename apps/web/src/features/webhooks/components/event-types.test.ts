import { describe, expect, it } from 'vitest';
import { groupEventTypes, payloadEventType, prettyPayload, WEBHOOK_EVENT_TYPES } from './event-types';

describe('WEBHOOK_EVENT_TYPES', () => {
  it('lists every event type of the contract, read from the SDK at run time', () => {
    // The reference's 27, then the extensions.
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(34);
    expect(WEBHOOK_EVENT_TYPES).toContain('checkout.expired');
    expect(WEBHOOK_EVENT_TYPES).toContain('discount.deleted');
    expect(WEBHOOK_EVENT_TYPES).toContain('organization.member_removed');
    expect(WEBHOOK_EVENT_TYPES).toContain('order.paid');
    expect(WEBHOOK_EVENT_TYPES).toContain('benefit_grant.revoked');
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(WEBHOOK_EVENT_TYPES.length);
  });
});

describe('groupEventTypes', () => {
  it('groups by the resource before the dot, keeping the order types come in', () => {
    const groups = groupEventTypes(['order.created', 'benefit_grant.created', 'order.paid']);
    expect(groups).toEqual([
      { resource: 'order', label: 'Order', types: ['order.created', 'order.paid'] },
      { resource: 'benefit_grant', label: 'Benefit grant', types: ['benefit_grant.created'] },
    ]);
  });

  it('puts every type of the contract in exactly one group', () => {
    const grouped = groupEventTypes(WEBHOOK_EVENT_TYPES).flatMap((group) => group.types);
    expect([...grouped].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});

describe('payloadEventType', () => {
  it('reads the type of a JSON payload', () => {
    expect(payloadEventType('{"type":"product.created","data":{}}')).toBe('product.created');
  });

  it('gives undefined for text that is not JSON or has no string type', () => {
    expect(payloadEventType('not json')).toBeUndefined();
    expect(payloadEventType('{"type":3}')).toBeUndefined();
    expect(payloadEventType('null')).toBeUndefined();
  });
});

describe('prettyPayload', () => {
  it('indents JSON and leaves other text alone', () => {
    expect(prettyPayload('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyPayload('plain')).toBe('plain');
  });
});
