import { BoundedCache } from '../bounded-cache.js';

/**
 * Answers of reads kept in a node's memory, as the JSON text sent. A route opts in with `cachedUnder`
 * (route.ts): the key it names holds everything its answer depends on, a version the authentication's
 * one statement reads with the token among it (the organization's `catalogue_version`, moved by triggers
 * as any write to what the answer embeds commits). A change is seen by the next request on every node,
 * which reads the new version and so a key not kept yet; answers kept under older versions are never
 * asked for again and age out.
 *
 * Bounded by count and by size, least recently used out first; an answer that would push out an eighth
 * of everything is not kept.
 */
export class ResponseCache extends BoundedCache<string> {
  constructor(
    maxEntries = 1000,
    /** Characters of JSON kept in all (about twice as many bytes). */
    maxSize = 8_000_000,
  ) {
    super(maxEntries, maxSize, (text) => text.length);
  }

  get size(): { entries: number; characters: number } {
    return { entries: this.count, characters: this.weight };
  }
}
