/**
 * Redaction per spec 2.2: each entity becomes `<ENTITY_TYPE>`. Findings use code-point offsets. Overlaps are
 * resolved deterministically: transitively overlapping findings form one span (their union, so no fragment
 * of a detected entity leaks) labelled with the winner — higher score, then longer span, then earlier start.
 */
import { codePointToUtf16Mapper } from './offsets.ts';
import type { Finding } from './types.ts';

type Span = { start: number; end: number; type: string };

const better = (a: Finding, b: Finding): boolean =>
  a.score !== b.score ? a.score > b.score : a.end - a.start !== b.end - b.start ? a.end - a.start > b.end - b.start : a.start < b.start;

/** Non-overlapping spans (code points), sorted by start, each labelled with its cluster's winning type. */
export const resolveOverlaps = (findings: readonly Finding[]): Span[] => {
  const sorted = findings.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: Span[] = [];
  let winner: Finding | undefined;
  let start = 0;
  let end = -1;
  for (const f of sorted) {
    if (winner && f.start < end) {
      end = Math.max(end, f.end);
      if (better(f, winner)) winner = f;
      continue;
    }
    if (winner) spans.push({ start, end, type: winner.type });
    winner = f;
    start = f.start;
    end = f.end;
  }
  if (winner) spans.push({ start, end, type: winner.type });
  return spans;
};

/** Replaces every finding (code-point offsets) with `<TYPE>`; output is well-formed whatever the overlaps. */
export const redact = (text: string, findings: readonly Finding[]): string => {
  if (findings.length === 0) return text;
  const toUtf16 = codePointToUtf16Mapper(text);
  const parts: string[] = [];
  let cursor = 0;
  for (const span of resolveOverlaps(findings)) {
    const s = toUtf16(span.start);
    const e = toUtf16(span.end);
    if (s < cursor) continue;
    parts.push(text.slice(cursor, s), `<${span.type}>`);
    cursor = e;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
};
