import { AppError } from '../errors.ts';
import type { DateRange } from './types.ts';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export const isIsoDate = (value: string): boolean =>
  isoDate.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** Validates a `[from, to]` pair: two real dates, from <= to. Throws AppError VALIDATION otherwise. */
export const checkDateRange = (range: readonly string[]): DateRange => {
  const [from, to] = range;
  if (range.length !== 2 || from === undefined || to === undefined) {
    throw new AppError('VALIDATION', 'date_range must be two dates [from, to]');
  }
  if (!isIsoDate(from) || !isIsoDate(to)) throw new AppError('VALIDATION', 'date_range dates must be YYYY-MM-DD');
  if (from > to) throw new AppError('VALIDATION', 'date_range: from is after to');
  return [from, to];
};

/** The default range when a REST caller gives none: the 30 days ending today (UTC), both ends inclusive. */
export const defaultDateRange = (now: Date): DateRange => {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  return [from, to];
};

/** Whether an event timestamp (ISO 8601 UTC) falls on a day inside the inclusive range. */
export const inDateRange = (timestamp: string, [from, to]: DateRange): boolean => {
  const day = timestamp.slice(0, 10);
  return day >= from && day <= to;
};
