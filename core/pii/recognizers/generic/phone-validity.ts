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

/** The parts of libphonenumber-js's NumberingPlan and Format APIs used here (its .d.ts does not declare them). */
type FormatApi = {
  pattern(): string;
  leadingDigitsPatterns(): string[];
  nationalPrefixIsMandatoryWhenFormattingInNationalFormat(): boolean;
};
type PlanApi = {
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  type(name: string): { pattern(): string | undefined } | undefined;
  formats(): FormatApi[];
};

const isPlanApi = (plan: unknown): plan is PlanApi =>
  typeof plan === 'object' &&
  plan !== null &&
  ['nationalNumberPattern', 'nationalPrefixForParsing', 'nationalPrefixTransformRule', 'type', 'formats'].every(
    (method) => typeof Reflect.get(plan, method) === 'function',
  );

/** A national format: which numbers it applies to, and whether writing them nationally needs the trunk prefix. */
type CompiledFormat = { leading: RegExp | null; pattern: RegExp; prefixMandatory: boolean };
type CompiledPlan = { general: RegExp; prefix: RegExp | null; transform: string | null; types: RegExp[]; formats: CompiledFormat[] };

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
    formats: plan.formats().map((f) => {
      const leading = f.leadingDigitsPatterns().at(-1);
      return {
        leading: leading === undefined ? null : new RegExp(`^(?:${leading})`),
        pattern: full(f.pattern()),
        prefixMandatory: f.nationalPrefixIsMandatoryWhenFormattingInNationalFormat(),
      };
    }),
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

/**
 * libphonenumber's "national prefix present if required" check (part of the VALID leniency Presidio's matcher
 * uses): a number written without its trunk prefix is refused when its region's national format requires the
 * prefix (`20 7946 0000` in GB needs the leading 0), as libphonenumber's chooseFormattingPatternForNumber decides.
 */
const prefixRequired = (plan: CompiledPlan, national: string): boolean => {
  const format = plan.formats.find((f) => (f.leading === null || f.leading.test(national)) && f.pattern.test(national));
  return format?.prefixMandatory === true;
};

/**
 * True when `digits` (national format) is a valid number of `region`: with its trunk prefix (stripped before
 * the check), or without one where the region's format allows that (Presidio's leading-zero rule).
 */
export const isValidNationalNumber = (digits: string, region: CountryCode): boolean => {
  const plan = planOf(region);
  if (plan.prefix) {
    const m = plan.prefix.exec(digits);
    if (m && m[0].length > 0) {
      const stripped = plan.transform && m[1] !== undefined ? digits.replace(plan.prefix, plan.transform) : digits.slice(m[0].length);
      if (validNational(plan, stripped)) return true;
    }
  }
  return validNational(plan, digits) && !(plan.prefix && prefixRequired(plan, digits));
};
