// What a visitor typed -> the words an index matches, each as a prefix ("starb" finds Starbucks):
// lower case, accents removed, letters and digits only (so nothing typed is query syntax).
export function nameTerms(query: string): string[] {
  const folded = query.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

/** FTS5 MATCH: every word, as a prefix. */
export const ftsMatch = (terms: string[]) => terms.map((term) => `"${term}"*`).join(' ');
