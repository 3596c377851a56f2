import type { Product } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import {
  attachedCustomFieldsBody,
  attachedFieldDrafts,
  moveAttachedField,
  orderedChoices,
  sameIds,
  selectedInOrder,
  setFieldRequired,
  toggleAttachedField,
} from './attachments';

const a = { id: 'a' };
const b = { id: 'b' };
const c = { id: 'c' };

describe('orderedChoices', () => {
  it('puts the attached ones first in their order, then the rest as listed, each once', () => {
    expect(orderedChoices([c, a], [a, b, c])).toEqual([c, a, b]);
  });

  it('keeps an attached one missing from a partial list', () => {
    expect(orderedChoices([c], [a])).toEqual([c, a]);
  });

  it('shows the listed copy of an attached one (renamed since the product was read)', () => {
    const renamed = { id: 'a', description: 'New name' };
    expect(orderedChoices([{ id: 'a', description: 'Old name' }], [renamed])).toEqual([renamed]);
  });
});

describe('selectedInOrder', () => {
  it('lists the selected ids in the order shown', () => {
    expect(selectedInOrder([c, a, b], new Set(['b', 'c']))).toEqual(['c', 'b']);
  });
});

describe('sameIds', () => {
  it('compares order too (the product lists benefits in the order saved)', () => {
    expect(sameIds(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameIds(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameIds(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('attached custom fields', () => {
  const product = {
    attached_custom_fields: [
      { custom_field_id: 'y', order: 1, required: false },
      { custom_field_id: 'x', order: 0, required: true },
    ],
  } as unknown as Product;

  it('reads the product in its order', () => {
    expect(attachedFieldDrafts(product)).toEqual([
      { customFieldId: 'x', required: true },
      { customFieldId: 'y', required: false },
    ]);
    expect(attachedFieldDrafts(undefined)).toEqual([]);
  });

  it('appends an attached field as optional, and drops a detached one', () => {
    const drafts = attachedFieldDrafts(product);
    expect(toggleAttachedField(drafts, 'z', true)).toEqual([...drafts, { customFieldId: 'z', required: false }]);
    expect(toggleAttachedField(drafts, 'x', false)).toEqual([{ customFieldId: 'y', required: false }]);
  });

  it('moves a field one place, and nothing past either end', () => {
    const drafts = attachedFieldDrafts(product);
    expect(moveAttachedField(drafts, 'y', -1).map((draft) => draft.customFieldId)).toEqual(['y', 'x']);
    expect(moveAttachedField(drafts, 'x', -1)).toEqual(drafts);
    expect(moveAttachedField(drafts, 'y', 1)).toEqual(drafts);
  });

  it('sends the fields in order with their required flag', () => {
    const drafts = setFieldRequired(attachedFieldDrafts(product), 'y', true);
    expect(attachedCustomFieldsBody(drafts)).toEqual([
      { custom_field_id: 'x', required: true },
      { custom_field_id: 'y', required: true },
    ]);
  });
});
