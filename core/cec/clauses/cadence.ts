import { z } from 'zod';
import type { KeyEvidence } from './key-evidence.ts';
import type { FrameworkId } from './types.ts';

/**
 * How often evidence must appear over the period for a framework (docs/clause-mapping.md, "Cadence"):
 * `monthly`: at least one record in every calendar month of the period (operating effectiveness, SOC 2 Type II);
 * `max_age`: the latest record is at most `days` old on the as-of date (continuous obligations);
 * `any`: one record anywhere in the period is enough.
 */
export const cadenceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('monthly') }),
  z.strictObject({ kind: z.literal('max_age'), days: z.int().min(1).max(3660) }),
  z.strictObject({ kind: z.literal('any') }),
]);
export type Cadence = z.infer<typeof cadenceSchema>;

/** Defaults per framework, chosen from what the framework asks of a control's operation (docs/decisions.md). */
export const defaultCadences: Readonly<Record<FrameworkId, Cadence>> = {
  eu_ai_act: { kind: 'max_age', days: 90 },
  iso_42001: { kind: 'max_age', days: 180 },
  nist_ai_rmf: { kind: 'max_age', days: 90 },
  iso27001: { kind: 'max_age', days: 180 },
  soc2: { kind: 'monthly' },
};

/** The period a clause map judges: the requested dates, and the day whose end the staleness is measured at. */
export type AssessmentWindow = {
  readonly from: string | null;
  readonly to: string | null;
  /** `to`, or today (UTC) for an open range. */
  readonly as_of: string;
  /** `from`, or the day of the project's first record in range for an open start; null without records. */
  readonly period_start: string | null;
};

export type CadenceCheck = {
  readonly met: boolean;
  readonly message: string;
  readonly missing_months?: readonly string[];
  readonly age_days?: number;
};

const dayMs = 86_400_000;
const monthOf = (day: string): string => day.slice(0, 7);

/** Every `YYYY-MM` from the month of `start` to the month of `end`, inclusive. */
export const monthsBetween = (start: string, end: string): string[] => {
  const months: string[] = [];
  let year = Number(start.slice(0, 4));
  let month = Number(start.slice(5, 7));
  const last = monthOf(end);
  for (let guard = 0; guard < 1200; guard += 1) {
    const current = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    if (current > last) break;
    months.push(current);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
};

/**
 * Checks one key's evidence against a cadence over the window. With an open end (`to` null) the month in
 * progress is not required yet. Pure: the same evidence and window always give the same answer.
 */
export const checkCadence = (cadence: Cadence, evidence: KeyEvidence, window: AssessmentWindow): CadenceCheck => {
  if (evidence.latest_at === null) return { met: false, message: 'no records in the period' };
  if (cadence.kind === 'any') return { met: true, message: 'records in the period (no cadence required)' };
  if (cadence.kind === 'max_age') {
    // Whole days between the latest record's UTC day and the as-of day.
    const ageDays = Math.max(
      0,
      Math.round((Date.parse(`${window.as_of}T00:00:00.000Z`) - Date.parse(`${evidence.latest_at.slice(0, 10)}T00:00:00.000Z`)) / dayMs),
    );
    return ageDays <= cadence.days
      ? { met: true, message: `latest record ${ageDays} day(s) old on ${window.as_of} (at most ${cadence.days})`, age_days: ageDays }
      : {
          met: false,
          message: `stale: latest record ${ageDays} day(s) old on ${window.as_of}, more than ${cadence.days}`,
          age_days: ageDays,
        };
  }
  const start = window.period_start ?? window.as_of;
  const required = monthsBetween(start, window.as_of).filter((month) => window.to !== null || month !== monthOf(window.as_of));
  const missing = required.filter((month) => (evidence.months[month] ?? 0) === 0);
  if (missing.length === 0) {
    return { met: true, message: `records in every month of the period (${required.length} month(s))`, missing_months: [] };
  }
  return {
    met: false,
    message: `period not covered: no records in ${missing.length} of ${required.length} month(s) (${missing.slice(0, 6).join(', ')}${missing.length > 6 ? ', …' : ''})`,
    missing_months: missing,
  };
};

/** A short human description of a cadence ("every month", "latest at most 90 days old"). */
export const describeCadence = (cadence: Cadence): string =>
  cadence.kind === 'monthly'
    ? 'records in every month of the period'
    : cadence.kind === 'max_age'
      ? `latest record at most ${cadence.days} days old`
      : 'any record in the period';
