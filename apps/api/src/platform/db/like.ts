/** A search term as data in a LIKE pattern: `%`, `_` and `\` match themselves. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A LIKE/ILIKE pattern matching values that contain `term`. */
export function likeContains(term: string): string {
  return `%${escapeLike(term)}%`;
}
