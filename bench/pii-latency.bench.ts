/**
 * Full PII scan latency on 1 KB English texts with names (the app's engine: patterns + NER), p50 / p99, against
 * the patterns-only engine measured in the same run. Aim (issue 3): p50 <= 1 ms for the full scan.
 * Run: node --import tsx bench/pii-latency.bench.ts   (PII_BENCH_TEXTS=2000 to scale up)
 */
import { createPiiEngine } from '../core/pii/engine.ts';
import { nerRecognizer } from '../core/pii/ner/recognizer.ts';
import type { PiiEngine } from '../core/pii/types.ts';

const count = Number(process.env.PII_BENCH_TEXTS ?? 300);

const people = ['Maria Gonzalez', 'John Smith', 'Priya Raman', 'Wei Zhang', 'Olusegun Adeyemi', 'Emily Watson'];
const places = ['Madrid', 'Boston', 'Lagos', 'Berlin', 'Toronto', 'Sydney'];
const filler = [
  'The quarterly report was reviewed by the committee and approved without changes.',
  'Please make sure the backup job finished before the maintenance window starts.',
  'Our support team answers tickets within one business day, including weekends.',
  'The invoice total includes shipping and handling as agreed in the contract.',
];

/** A ~1 KB text: prose with a name, a place, an e-mail address, a phone number and a card number per text. */
const textFor = (i: number): string => {
  const person = people[i % people.length] ?? '';
  const parts = [
    `${person} from ${places[i % places.length]} wrote on Monday about ticket ${1000 + i}.`,
    filler[i % filler.length],
    `Reply to ${person.split(' ')[0]?.toLowerCase()}.${i}@example.com or call +1 415-555-${String(1000 + (i % 9000)).padStart(4, '0')}.`,
    filler[(i + 1) % filler.length],
    `The card on file is 4111 1111 1111 1111 and the account was opened in ${2000 + (i % 20)}.`,
    filler[(i + 2) % filler.length],
    filler[(i + 3) % filler.length],
  ];
  let text = parts.join(' ');
  while (text.length < 1024) text += ` ${filler[i % filler.length]}`;
  return text.slice(0, 1024);
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

type Scanner = Pick<PiiEngine, 'scan'>;

const measure = (engine: Scanner, texts: readonly string[]): { p50: number; p99: number; findings: number } => {
  for (const text of texts.slice(0, 50)) engine.scan(text);
  const times: number[] = [];
  let findings = 0;
  for (const text of texts) {
    const started = performance.now();
    findings += engine.scan(text).entities.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), findings };
};

const texts = Array.from({ length: count }, (_, i) => textFor(i));
const patternsOnly = measure(createPiiEngine(), texts);
const full = measure(createPiiEngine({ extraRecognizers: [nerRecognizer] }), texts);
const nerOnly = measure(
  {
    scan: (text) => ({ detected: false, entities: nerRecognizer.analyze({ text, language: 'en' }), redacted_text: '', normalized: false }),
  },
  texts,
);

const fmt = (ms: number): string => `${ms.toFixed(3)} ms`;
console.log(`PII scan latency, ${count} texts of 1 KB (default English entities)`);
console.log(`  patterns only (baseline): p50 ${fmt(patternsOnly.p50)}  p99 ${fmt(patternsOnly.p99)}  findings ${patternsOnly.findings}`);
console.log(`  full scan with NER:       p50 ${fmt(full.p50)}  p99 ${fmt(full.p99)}  findings ${full.findings}`);
console.log(`  NER recognizer alone:      p50 ${fmt(nerOnly.p50)}  p99 ${fmt(nerOnly.p99)}  findings ${nerOnly.findings}`);
console.log(
  `  full / patterns-only p50 ratio: ${(full.p50 / patternsOnly.p50).toFixed(2)}x; aim p50 <= 1 ms: ${full.p50 <= 1 ? 'met' : 'NOT met'}`,
);
