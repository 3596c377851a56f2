import type { AttachedCustomFieldCreate, Product } from '@tessera/sdk';

/**
 * What a product carries besides its prices: benefits (saved with their own call) and the custom
 * fields asked at checkout (saved with the product, in order, each required or not).
 */

/**
 * The choices a picker shows: those attached to the product first, in their order, then the rest of
 * the organization's in the order listed. Attached ones always show, even when the list is partial;
 * when listed too, the listed copy is shown (it is the fresher one after an edit).
 */
export function orderedChoices<T extends { id: string }>(attached: readonly T[], listed: readonly T[]): T[] {
  const byId = new Map(listed.map((item) => [item.id, item]));
  const ids = new Set(attached.map((item) => item.id));
  return [...attached.map((item) => byId.get(item.id) ?? item), ...listed.filter((item) => !ids.has(item.id))];
}

/** The selected ids in the order the choices are shown: the order the product will list them in. */
export function selectedInOrder(choices: readonly { id: string }[], selected: ReadonlySet<string>): string[] {
  return choices.map((choice) => choice.id).filter((id) => selected.has(id));
}

export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

/** One custom field asked at checkout, as the form edits it. */
export interface AttachedFieldDraft {
  customFieldId: string;
  required: boolean;
}

export function attachedFieldDrafts(product: Product | undefined): AttachedFieldDraft[] {
  return [...(product?.attached_custom_fields ?? [])]
    .sort((a, b) => a.order - b.order)
    .map((attached) => ({ customFieldId: attached.custom_field_id, required: attached.required }));
}

/** Attaching appends the field (asked last); detaching removes it. */
export function toggleAttachedField(
  drafts: readonly AttachedFieldDraft[],
  customFieldId: string,
  attach: boolean,
): AttachedFieldDraft[] {
  const rest = drafts.filter((draft) => draft.customFieldId !== customFieldId);
  return attach ? [...rest, { customFieldId, required: false }] : rest;
}

export function setFieldRequired(
  drafts: readonly AttachedFieldDraft[],
  customFieldId: string,
  required: boolean,
): AttachedFieldDraft[] {
  return drafts.map((draft) => (draft.customFieldId === customFieldId ? { ...draft, required } : draft));
}

/** Moves an attached field one place earlier (-1) or later (+1); at either end nothing moves. */
export function moveAttachedField(
  drafts: readonly AttachedFieldDraft[],
  customFieldId: string,
  step: -1 | 1,
): AttachedFieldDraft[] {
  const from = drafts.findIndex((draft) => draft.customFieldId === customFieldId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= drafts.length) return [...drafts];
  const moved = [...drafts];
  [moved[from], moved[to]] = [moved[to]!, moved[from]!];
  return moved;
}

/** The wire list; its order is the order customers are asked in. */
export function attachedCustomFieldsBody(drafts: readonly AttachedFieldDraft[]): AttachedCustomFieldCreate[] {
  return drafts.map((draft) => ({ custom_field_id: draft.customFieldId, required: draft.required }));
}
