/**
 * Cost of issue 13/11.7 additions, as ratios against a baseline measured in the same run:
 *  - normalisation: the default pattern engine on 1 KB texts that need it (zero-width spaces, full-width digits)
 *    against the same texts without (identity view, no map);
 *  - dates in words: chrono-node's recognizer alone on texts with month names, against the whole pattern scan.
 * Run: node --import tsx bench/pii-normalise-dates.bench.ts   (PII_BENCH_TEXTS=1000 to scale up)
 */
import { createPiiEngine } from '../core/pii/engine.ts';
import { dateWordsRecognizer } from '../core/pii/recognizers/generic/date-words.ts';

const count = Number(process.env.PII_BENCH_TEXTS ?? 200);
const months = ['March', 'May', 'September', 'December'];
const sentence = (i: number): string =>
  `Ticket ${1000 + i} was opened on the ${1 + (i % 28)}th of ${months[i % months.length]} 2024 by ann${i}@example.com; ` +
  `card 4111 1111 1111 1111, phone +44 20 7946 0${String(i % 1000).padStart(3, '0')}. The backup finished before the window. `;
const plain = Array.from({ length: count }, (_, i) => sentence(i).repeat(6).slice(0, 1024));
const obfuscated = plain.map((t) => t.replace(/@/g, '\u200b@').replace(/\d/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0)));

const engine = createPiiEngine();
const time = (run: (text: string) => unknown, texts: readonly string[]): number => {
  for (const t of texts.slice(0, 20)) run(t);
  const started = performance.now();
  for (const t of texts) run(t);
  return (performance.now() - started) / texts.length;
};

// Interleaved rounds, best of three each: the machine is shared, the minimum is the least disturbed figure.
const rounds = [0, 1, 2].map(() => [time((t) => engine.scan(t), plain), time((t) => engine.scan(t), obfuscated)] as const);
const base = Math.min(...rounds.map((r) => r[0]));
const normalised = Math.min(...rounds.map((r) => r[1]));
const dateWords = time((t) => dateWordsRecognizer.analyze({ text: t, language: 'en' }), plain);
const fmt = (ms: number): string => `${ms.toFixed(3)} ms`;
console.log(`PII normalisation and dates in words, ${count} texts of 1 KB (pattern engine, default English entities)`);
console.log(`  baseline scan (plain text):          ${fmt(base)} per text`);
console.log(`  scan needing normalisation:          ${fmt(normalised)} per text  ratio ${(normalised / base).toFixed(2)}`);
console.log(`  dates-in-words recognizer alone:     ${fmt(dateWords)} per text  share of the scan ${(dateWords / base).toFixed(2)}`);
