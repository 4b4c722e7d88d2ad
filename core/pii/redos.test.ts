/**
 * Linear-time proof by experiment: every built-in recognizer on adversarial 1 MiB inputs (runs of digits,
 * `a@a.` chains, spaces, repeated separators…) must finish well within a generous bound.
 */
import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';
import { builtInRecognizers } from './registry.ts';

const MiB = 1 << 20;
const BOUND_MS = 5000;
/**
 * The machine is shared: a linear pass over the same input, timed just before, scales the bound, so load slows
 * both sides alike. A super-linear recognizer on 1 MiB is orders of magnitude past 200 such passes.
 */
const linearPassMs = (text: string): number => {
  const started = performance.now();
  text.replace(/[\w.@:/-]+/g, '');
  return performance.now() - started;
};
const boundFor = (text: string): number => Math.max(BOUND_MS, 200 * linearPassMs(text));
const fill = (unit: string): string => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);

const ADVERSARIAL: Record<string, string> = {
  digits: fill('1'),
  'a@a.a.a': `a@${fill('a.')}`,
  'a@ repeated': fill('a@a.'),
  spaces: fill(' '),
  hyphens: fill('-'),
  'digit-hyphen': fill('1-'),
  'digit pairs and spaces': fill('12 '),
  colons: fill(':'),
  'hex colon': fill('a:'),
  'digit dots': fill('1.'),
  letters: fill('a'),
  alnum: fill('a1'),
  'upper alnum': fill('AB12'),
  slashes: fill('1/'),
  'at signs': fill('@'),
  'url-ish': `http://${fill('a.')}`,
};

/**
 * The country phone entities share PhoneRecognizer's code (one candidate regex, metadata checks on ≤ 24-character
 * candidates): one of them stands for the rest, which keeps this file fast.
 */
const distinctCode = builtInRecognizers().filter(
  (r, i, all) => !r.name.startsWith('PhoneRecognizer_') || all.findIndex((o) => o.name.startsWith('PhoneRecognizer_')) === i,
);

describe('every recognizer is linear on adversarial 1 MiB inputs', () => {
  for (const recognizer of distinctCode) {
    it(`${recognizer.name} (${recognizer.supportedLanguages[0]})`, () => {
      for (const [name, text] of Object.entries(ADVERSARIAL)) {
        const bound = boundFor(text);
        const started = performance.now();
        recognizer.analyze({ text, language: recognizer.supportedLanguages[0] ?? 'en' });
        const elapsed = performance.now() - started;
        expect(elapsed, `${recognizer.name} on ${name} took ${elapsed.toFixed(0)} ms (bound ${bound.toFixed(0)})`).toBeLessThan(bound);
      }
    });
  }

  it('the whole default pipeline scans 1 MiB of digits and of `a@a.` in bounded time', () => {
    const engine = createPiiEngine();
    for (const text of [ADVERSARIAL.digits as string, ADVERSARIAL['a@ repeated'] as string]) {
      const bound = 4 * boundFor(text);
      const started = performance.now();
      const result = engine.scan(text);
      expect(performance.now() - started).toBeLessThan(bound);
      expect(result.redacted_text.length).toBeGreaterThan(0);
    }
  });
});
