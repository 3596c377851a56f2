/**
 * Columns migrations 0019 and 0055 add to the `events` table of 0012 (declared with the grant engine's
 * tables): the usage modules read them as part of their event rows.
 */
export interface UsageEventColumns {
  /** The seller's id for the event; unique per organization when set (deduplicates re-sent events). */
  external_id: string | null;
  /** The parent event (same organization), or null for a root. */
  parent_id: string | null;
}
