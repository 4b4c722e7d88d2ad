/**
 * Phone regions of a scan: the request's `phone_regions` (zod-validated here) or the SVC_PII_PHONE_REGIONS
 * setting. Only regions libphonenumber has a numbering plan for are accepted, so a typo is a clear 400, not a
 * silently narrower scan.
 */
import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { AppError } from '../errors.ts';

const isRegion = (code: string): code is CountryCode => isSupportedCountry(code);

/** One ISO 3166 alpha-2 region with a libphonenumber numbering plan. */
export const phoneRegionSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, 'phone regions are upper-case ISO 3166 codes, e.g. GB')
  .refine(isRegion, { message: 'no numbering plan for this phone region' })
  .transform((code) => code as CountryCode);

export const phoneRegionsSchema = z.array(phoneRegionSchema).min(1).max(300);

/** The last setting read and its regions: every scan asks, and the value rarely changes (~3 µs a parse). */
let parsed: { readonly csv: string; readonly regions: readonly CountryCode[] } | undefined;

/** The regions of the SVC_PII_PHONE_REGIONS setting (its shape is checked by the settings schema). */
export const phoneRegionsOfSetting = (csv: string): readonly CountryCode[] => {
  if (parsed?.csv === csv) return parsed.regions;
  const codes = csv.split(',');
  const unknown = codes.filter((code) => !isRegion(code));
  if (unknown.length > 0) {
    throw new AppError('VALIDATION', `SVC_PII_PHONE_REGIONS: no numbering plan for ${unknown.join(', ').slice(0, 100)}`);
  }
  parsed = { csv, regions: Object.freeze(codes.filter(isRegion)) };
  return parsed.regions;
};
