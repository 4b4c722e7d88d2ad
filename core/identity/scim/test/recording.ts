import type { Queryable } from '../../../store/database.ts';

/** The statements a filter evaluation sends (on the real database underneath). */
export const recording = (db: Queryable): { db: Queryable; sql: string[] } => {
  const sql: string[] = [];
  const seen = (text: string): string => {
    sql.push(text);
    return text;
  };
  return {
    sql,
    db: {
      dialect: db.dialect,
      all: (row, text, params) => db.all(row, seen(text), params),
      tuples: (row, text, params) => db.tuples(row, seen(text), params),
      one: (row, text, params) => db.one(row, seen(text), params),
      run: (text, params) => db.run(seen(text), params),
      exec: (text) => db.exec(seen(text)),
    },
  };
};
