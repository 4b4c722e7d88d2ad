/**
 * Patterns-only throughput of our PII engine (default English pattern set, no NER) against ripgrep running
 * the same pattern set (as rg-compatible regexes, case-insensitive like Presidio's flags) on the same file.
 * Also reports how many planted entities the engine found at their exact positions.
 * Run: node --import tsx bench/pii-patterns.bench.ts   (PII_CORPUS_BYTES=1000000 to shrink, default 10 MB)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPiiEngine } from '../core/pii/engine.ts';
import { corpusBytesFromEnv, generateCorpus } from './pii-corpus.ts';
import { printRow, ratio } from './support.ts';

/** The default English pattern set, one rg regex per built-in pattern (lookarounds replaced by \b). */
const RG_PATTERNS = [
  String.raw`\b(?:4\d{3}|5[0-5]\d{2}|6\d{3}|1\d{3}|3\d{3})[- ]?\d{3,4}[- ]?\d{3,4}[- ]?\d{3,5}\b`,
  '(?:bc1|[13])[a-zA-HJ-NP-Z0-9]{25,59}',
  String.raw`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})`,
  String.raw`\b(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/(?:\d{4}|\d{2})\b`,
  String.raw`\b(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])/(?:\d{4}|\d{2})\b`,
  String.raw`\b\d{4}[/-](?:0?[1-9]|1[0-2])[/-](?:0?[1-9]|[12]\d|3[01])\b`,
  String.raw`\b(?:0?[1-9]|[12]\d|3[01])[.-](?:0?[1-9]|1[0-2])[.-](?:\d{4}|\d{2})\b`,
  String.raw`\b(?:0?[1-9]|[12]\d|3[01])-(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:-\d{2,4})?\b`,
  String.raw`\b(?:0?[1-9]|1[0-2])/\d{2,4}\b`,
  String.raw`[\w!#$%&'*+/=?^{|}~.-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,10}`,
  String.raw`\b[a-z]{2}\d{2}(?:[ -]?[a-z0-9]{4}){2,7}(?:[ -]?[a-z0-9]{1,3})?\b`,
  String.raw`\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:/\d{1,2})?\b`,
  String.raw`\b[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}\b`,
  String.raw`\b[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}\b`,
  String.raw`\b[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}\b`,
  String.raw`\b[abcdefghjklmprstux][a-z9]\d{7}\b`,
  String.raw`[+(]?\d[\d ().\-/]{4,22}\d`,
  String.raw`\bhttps?://(?:www\d{0,3}\.)?[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,10}\.[a-z]{2,63}(?::\d{1,5})?(?:[/?#][^\s"'<>]{0,2048})?`,
  String.raw`\b(?:www\d{0,3}\.)?[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,10}\.[a-z]{2,63}\b`,
  String.raw`\b\d{5}-\d{4}\b|\b\d{3}-\d{6}\b|\b\d{3}-\d{2}-\d{4}\b|\b\d{9}\b|\b\d{3}[- .]\d{2}[- .]\d{4}\b`,
  String.raw`\b9\d{2}[- ]?(?:5\d|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])[- ]?\d{4}\b`,
  String.raw`\b[a-z]\d{8}\b`,
  String.raw`\b(?:[a-z]\d{3,14}|[a-z]{2}\d{2,7}|[a-z]{2}\d{3,4}[a-z]|\d{2}[a-z]{3}\d{5}|\d{3}[a-z]{2}\d{4}|\d{7,9}[a-z]{1,2})\b`,
  String.raw`\b(?:\d{6,14}|\d{16})\b`,
  String.raw`\b\d{8,17}\b`,
  String.raw`\b\d{3}[- ]?\d{3}[- ]?\d{4}\b`,
  String.raw`\b[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dx]\b`,
  String.raw`\b[1-8]\d{7}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}\b`,
];

const bytes = corpusBytesFromEnv();
const corpus = generateCorpus(bytes, 42);
const dir = mkdtempSync(join(tmpdir(), 'pii-bench-'));
const corpusFile = join(dir, 'corpus.txt');
const patternsFile = join(dir, 'patterns.txt');
writeFileSync(corpusFile, corpus.text);
writeFileSync(patternsFile, `${RG_PATTERNS.join('\n')}\n`);
const mb = Buffer.byteLength(corpus.text) / 1e6;

const engine = createPiiEngine();
engine.scan(corpus.text.slice(0, 100_000)); // warm-up (JIT, phone metadata)
const started = performance.now();
const result = engine.scan(corpus.text);
const engineSeconds = (performance.now() - started) / 1000;

/** Best of 3 runs of `rg -c -i -f <patterns> <corpus>`: seconds and matching-line count. */
const runRg = (file: string): { seconds: number; count: string } => {
  const runs: number[] = [];
  let count = '';
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const rg = spawnSync('rg', ['-c', '-i', '-f', file, corpusFile], { encoding: 'utf8' });
    runs.push((performance.now() - t) / 1000);
    if (rg.status !== 0 && rg.status !== 1) throw new Error(`rg failed: ${rg.stderr}`);
    count = rg.stdout.trim();
  }
  return { seconds: Math.min(...runs), count };
};
// rg's default classes are Unicode-aware (\w, \d, \b); JavaScript's (no u flag) are ASCII like `(?-u)`.
const asciiPatternsFile = join(dir, 'patterns-ascii.txt');
writeFileSync(asciiPatternsFile, `${RG_PATTERNS.map((p) => `(?-u)${p}`).join('\n')}\n`);
const rgUnicode = runRg(patternsFile);
const rgAscii = runRg(asciiPatternsFile);

const found = new Set(result.entities.map((f) => `${f.type}:${f.start}:${f.end}`));
const patternPlanted = corpus.entities.filter((e) => e.type !== 'PERSON' && e.type !== 'LOCATION');
const hit = patternPlanted.filter((e) => found.has(`${e.type}:${e.start}:${e.end}`)).length;

printRow('corpus', `${mb.toFixed(1)} MB, ${patternPlanted.length} planted pattern entities`);
printRow(
  'engine patterns-only (default en set)',
  `${(mb / engineSeconds).toFixed(1)} MB/s (${engineSeconds.toFixed(2)} s, ${result.entities.length} findings)`,
);
printRow(
  `ripgrep -c -i -f (${RG_PATTERNS.length} patterns, Unicode)`,
  `${(mb / rgUnicode.seconds).toFixed(1)} MB/s (${rgUnicode.seconds.toFixed(2)} s, ${rgUnicode.count} matching lines)`,
);
printRow(
  `ripgrep -c -i -f (same, (?-u) ASCII classes)`,
  `${(mb / rgAscii.seconds).toFixed(1)} MB/s (${rgAscii.seconds.toFixed(2)} s, ${rgAscii.count} matching lines)`,
);
printRow('ratio engine / ripgrep Unicode (aim >= 0.3x)', ratio(mb / engineSeconds, mb / rgUnicode.seconds));
printRow('ratio engine / ripgrep ASCII (aim >= 0.3x)', ratio(mb / engineSeconds, mb / rgAscii.seconds));
printRow('planted entities found at exact span', `${hit}/${patternPlanted.length} (${((100 * hit) / patternPlanted.length).toFixed(1)}%)`);
rmSync(dir, { recursive: true, force: true });
