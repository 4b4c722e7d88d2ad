/**
 * Accuracy specs for the country phone entities, built from libphonenumber's own example numbers: positives
 * vary the example's last digits while libphonenumber-js still calls the number valid, written nationally or
 * internationally; negatives are another country's number or a too-short digit run.
 */
import { type CountryCode, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { countryPhoneRecognizers } from '../recognizers/generic/phone-countries.ts';
import type { Spec } from './accuracy-corpus.ts';
import { digits, int, pick, type Rng } from './generators.ts';

const exampleOf = (region: CountryCode) => {
  const number = getExampleNumber(region, examples);
  if (!number) throw new Error(`no example number for ${region}`);
  return number;
};

/** A valid number of `region`: the example with its last two digits varied (first valid variant). */
const variant = (region: CountryCode, rng: Rng) => {
  const example = exampleOf(region);
  const national = example.nationalNumber;
  for (let tries = 0; tries < 20; tries++) {
    const candidate = parsePhoneNumberFromString(`+${example.countryCallingCode}${national.slice(0, -2)}${digits(rng, 2)}`);
    if (candidate?.isValid() && candidate.country === region) return candidate;
  }
  return example;
};

export const PHONE_SPECS: Spec[] = countryPhoneRecognizers.map((recognizer) => {
  const entity = recognizer.supportedEntities[0] as string;
  const region = entity.slice(0, 2) as CountryCode;
  const foreign: CountryCode = region === 'GB' ? 'DE' : 'GB';
  return {
    entity,
    positive: (rng) => {
      const number = variant(region, rng);
      return rng() < 0.5 ? number.formatNational() : number.formatInternational();
    },
    negative: (rng) => pick(rng, [variant(foreign, rng).formatInternational(), `${int(rng, 1, 9)}${digits(rng, 3)}`]),
  };
});
