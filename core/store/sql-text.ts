/**
 * The one SQL spelling the core writes: SQLite's `?` placeholders, which PostgreSQL needs as `$1, $2, ...`.
 * The rewrite skips string literals, quoted identifiers and comments, so a `?` inside them stays as written.
 * Results are cached: most statements are constants in the code; the cap bounds the ones built at run time
 * (SCIM filters).
 */
const cache = new Map<string, string>();
const cacheLimit = 2000;

const skipTo = (sql: string, from: number, end: string): number => {
  const at = sql.indexOf(end, from);
  return at === -1 ? sql.length : at + end.length;
};

const translate = (sql: string): string => {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    let end = i + 1;
    // '' and "" escapes need no special case: the scanner leaves the literal and re-enters it at once.
    if (c === "'" || c === '"') end = skipTo(sql, i + 1, c);
    else if (c === '-' && next === '-') end = skipTo(sql, i + 2, '\n');
    else if (c === '/' && next === '*') end = skipTo(sql, i + 2, '*/');
    else if (c === '?') {
      n += 1;
      out += `$${n}`;
      i += 1;
      continue;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return out;
};

/**
 * A bound row limit: write `LIMIT ${boundLimit}`, never `LIMIT ?`. SQLite's planner reads a bare `?` LIMIT's value,
 * so binding it marks the statement expired and every run prepares it again: a keyset page query was parsed and
 * planned once per page (docs/decisions.md, "Bound LIMITs"). A cast is an expression the planner leaves alone.
 * BIGINT: SQLite's limits are 64-bit, and PostgreSQL's LIMIT takes one.
 */
export const boundLimit = 'CAST(? AS BIGINT)';

/** `sql` with each `?` placeholder numbered for PostgreSQL. */
export const numberedPlaceholders = (sql: string): string => {
  let numbered = cache.get(sql);
  if (numbered === undefined) {
    numbered = translate(sql);
    if (cache.size >= cacheLimit) cache.clear();
    cache.set(sql, numbered);
  }
  return numbered;
};
