/**
 * Columns migration 0019 adds to the `events` table of 0012 (declared with the grant engine's tables):
 * the usage modules read them as part of their event rows.
 */
export interface UsageEventColumns {
  /** The seller's id for the event; unique per organization when set (deduplicates re-sent events). */
  external_id: string | null;
}
