/**
 * Answers of reads kept in a node's memory, as the JSON text sent. A route opts in with `cachedUnder`
 * (route.ts): the key it names holds everything its answer depends on, a version the authentication's
 * one statement reads with the token among it (the organization's `catalogue_version`, moved by triggers
 * as any write to what the answer embeds commits). A change is seen by the next request on every node,
 * which reads the new version and so a key not kept yet; answers kept under older versions are never
 * asked for again and age out.
 *
 * Bounded by count and by size, least recently used out first.
 */
export class ResponseCache {
  readonly #entries = new Map<string, string>();
  #size = 0;

  constructor(
    readonly maxEntries = 1000,
    /** Characters of JSON kept in all (about twice as many bytes). */
    readonly maxSize = 8_000_000,
  ) {}

  get(key: string): string | undefined {
    const text = this.#entries.get(key);
    if (text === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, text);
    return text;
  }

  set(key: string, text: string): void {
    // An answer that would push out an eighth of everything is not worth keeping.
    if (text.length > this.maxSize / 8) return;
    this.delete(key);
    this.#entries.set(key, text);
    this.#size += text.length;
    while (this.#entries.size > this.maxEntries || this.#size > this.maxSize) {
      const oldest = this.#entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  get size(): { entries: number; characters: number } {
    return { entries: this.#entries.size, characters: this.#size };
  }

  private delete(key: string): void {
    const text = this.#entries.get(key);
    if (text === undefined) return;
    this.#entries.delete(key);
    this.#size -= text.length;
  }
}
