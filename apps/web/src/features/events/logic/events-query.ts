import type { EventsListRequest } from '@tessera/sdk';

/** The explorer's filters, as the controls hold them ('' for "any"). */
export interface EventFilters {
  name: string;
  source: '' | 'user' | 'system';
  customerId: string;
  meterId: string;
  /** Days `YYYY-MM-DD` (UTC), both included. */
  from: string;
  to: string;
  /** Metadata search: events whose metadata key holds a value containing the text. */
  metadataKey: string;
  metadataText: string;
}

export const NO_FILTERS: EventFilters = {
  name: '',
  source: '',
  customerId: '',
  meterId: '',
  from: '',
  to: '',
  metadataKey: '',
  metadataText: '',
};

/**
 * The list request for the filters, or the problem with them in words. The metadata search is a meter
 * filter clause (`LIKE`, a case-sensitive substring match) sent as the `filter` JSON; without a search the
 * filter is an empty "all of", which every event passes.
 */
export function eventsRequest(
  filters: EventFilters,
  organizationId: string,
  page: number,
  limit = 20,
): { request: EventsListRequest } | { problem: string } {
  const key = filters.metadataKey.trim();
  if (!key && filters.metadataText) return { problem: 'Enter the metadata key to search in.' };
  const start = filters.from ? Date.parse(`${filters.from}T00:00:00.000Z`) : null;
  const end = filters.to ? Date.parse(`${filters.to}T23:59:59.999Z`) : null;
  if (start !== null && end !== null && end < start)
    return { problem: 'The end day must not be before the start day.' };
  const clauses = key ? [{ property: key, operator: 'like' as const, value: filters.metadataText }] : [];
  return {
    request: {
      organization_id: organizationId,
      filter: JSON.stringify({ conjunction: 'and', clauses }),
      name: filters.name || undefined,
      source: filters.source || undefined,
      customer_id: filters.customerId || undefined,
      meter_id: filters.meterId || undefined,
      start_timestamp: start !== null ? new Date(start).toISOString() : undefined,
      end_timestamp: end !== null ? new Date(end).toISOString() : undefined,
      sorting: ['-timestamp'],
      page,
      limit,
    },
  };
}

/** A metadata value in one line: text as is, anything else as JSON. */
export function metadataValueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The first few metadata pairs of an event, for a list row ("region: eu · tokens: 120 · +2 more"). */
export function metadataSummary(metadata: Record<string, unknown>, shown = 3): string {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return '—';
  const parts = entries.slice(0, shown).map(([key, value]) => `${key}: ${metadataValueText(value)}`);
  if (entries.length > shown) parts.push(`+${entries.length - shown} more`);
  return parts.join(' · ');
}
