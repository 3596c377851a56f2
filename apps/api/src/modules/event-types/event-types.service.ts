import type { Context } from '../../platform/context.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import {
  findEventTypeLabels,
  findVisibleEventType,
  listVisibleEventTypes,
  updateEventType as updateEventTypeRow,
} from './event-types.repository.js';
import type { EventTypesListParams, EventTypeUpdateInput } from './event-types.schemas.js';
import { serializeEventType, serializeEventTypeWithStats } from './event-types.serializer.js';

/** `GET /v1/event-types/`: each event name and source with its events' statistics, under the filters. */
export async function listEventTypes(ctx: Context, params: EventTypesListParams) {
  const { rows, total } = await listVisibleEventTypes(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializeEventTypeWithStats), total, params);
}

/** `PATCH /v1/event-types/{id}`: the label (and its property selector) the type's events show. */
export async function updateEventType(ctx: Context, id: string, input: EventTypeUpdateInput) {
  const row = await findVisibleEventType(ctx.db, ctx.subject, id, true);
  if (!row) throw new ResourceNotFound();
  const updated = await updateEventTypeRow(ctx.db, row.id, {
    label: input.label,
    label_property_selector: input.label_property_selector ?? null,
    modified_at: ctx.clock.now(),
  });
  return serializeEventType(updated);
}

/**
 * For the events module: the label each event shows, by its organization and name (the name itself
 * when the type has not been named otherwise). `organization \0 name` → label.
 */
export async function eventLabels(
  ctx: Context,
  events: { organization_id: string; name: string }[],
): Promise<(event: { organization_id: string; name: string }) => string> {
  const unique = new Map(events.map((e) => [`${e.organization_id}\u0000${e.name}`, e]));
  const labels = await findEventTypeLabels(ctx.db, [...unique.values()]);
  return (event) => labels.get(`${event.organization_id}\u0000${event.name}`) ?? event.name;
}
