/**
 * A map bounded by count and, when given `sizeOf`, by size: least recently used out first (a read makes
 * an entry the most recent). A value that would take more than an eighth of the size bound is not kept.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();
  #weight = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxSize = Infinity,
    readonly sizeOf: (value: V) => number = () => 0,
  ) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxSize / 8) return;
    this.delete(key);
    this.#entries.set(key, value);
    this.#weight += size;
    while (this.#entries.size > this.maxEntries || this.#weight > this.maxSize) {
      this.delete(this.#entries.keys().next().value as string);
    }
  }

  /** How many values are kept. */
  get count(): number {
    return this.#entries.size;
  }

  /** The sum of the kept values' sizes. */
  get weight(): number {
    return this.#weight;
  }

  private delete(key: string): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#weight -= this.sizeOf(value);
  }
}
