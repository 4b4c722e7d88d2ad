/**
 * National phone-number validity per region, from libphonenumber's own metadata (full "max" set) with the
 * patterns compiled once. libphonenumber-js rebuilds these regexes on every parse (~0.1 ms per call), which
 * made PHONE_NUMBER 75% of scan time; this is the same decision (general pattern + one number-type pattern
 * after removing the national prefix) at regex speed.
 */
import { Metadata } from 'libphonenumber-js/core';
import type { CountryCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

const NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'PERSONAL_NUMBER',
  'VOICEMAIL',
  'UAN',
  'PAGER',
  'VOIP',
  'SHARED_COST',
];

/** The part of libphonenumber-js's NumberingPlan API used here (its .d.ts does not declare it). */
type PlanApi = {
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  type(name: string): { pattern(): string | undefined } | undefined;
};

const isPlanApi = (plan: unknown): plan is PlanApi =>
  typeof plan === 'object' &&
  plan !== null &&
  ['nationalNumberPattern', 'nationalPrefixForParsing', 'nationalPrefixTransformRule', 'type'].every(
    (method) => typeof Reflect.get(plan, method) === 'function',
  );

type CompiledPlan = { general: RegExp; prefix: RegExp | null; transform: string | null; types: RegExp[] };

const full = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);

const compile = (region: CountryCode): CompiledPlan => {
  const meta = new Metadata(metadata as never);
  meta.selectNumberingPlan(region);
  const plan: unknown = meta.numberingPlan;
  if (!isPlanApi(plan)) throw new TypeError(`libphonenumber-js has no numbering plan API for ${region}`);
  const prefix = plan.nationalPrefixForParsing();
  return {
    general: full(plan.nationalNumberPattern()),
    prefix: prefix ? new RegExp(`^(?:${prefix})`) : null,
    transform: plan.nationalPrefixTransformRule() ?? null,
    types: NUMBER_TYPES.map((t) => plan.type(t)?.pattern())
      .filter((p): p is string => !!p)
      .map(full),
  };
};

const plans = new Map<CountryCode, CompiledPlan>();
const planOf = (region: CountryCode): CompiledPlan => {
  let plan = plans.get(region);
  if (!plan) {
    plan = compile(region);
    plans.set(region, plan);
  }
  return plan;
};

const validNational = (plan: CompiledPlan, national: string): boolean =>
  plan.general.test(national) && plan.types.some((t) => t.test(national));

/** True when `digits` (national format, possibly with the trunk prefix) is a valid number of `region`. */
export const isValidNationalNumber = (digits: string, region: CountryCode): boolean => {
  const plan = planOf(region);
  if (plan.prefix) {
    const m = plan.prefix.exec(digits);
    if (m && m[0].length > 0) {
      const stripped = plan.transform && m[1] !== undefined ? digits.replace(plan.prefix, plan.transform) : digits.slice(m[0].length);
      if (validNational(plan, stripped)) return true;
    }
  }
  return validNational(plan, digits);
};
