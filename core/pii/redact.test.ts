import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';
import { redact, resolveOverlaps } from './redact.ts';
import type { Finding } from './types.ts';

const f = (type: string, start: number, end: number, score: number): Finding => ({ type, start, end, score });

describe('redact', () => {
  it('replaces each entity with <TYPE>', () => {
    expect(redact('call 555 now', [f('PHONE_NUMBER', 5, 8, 0.4)])).toBe('call <PHONE_NUMBER> now');
    expect(redact('unchanged', [])).toBe('unchanged');
  });
  it('resolves overlaps deterministically: score, then length, then start; contained spans merge', () => {
    const text = '0123456789';
    expect(redact(text, [f('A', 0, 9, 0.05), f('B', 0, 9, 0.5)])).toBe('<B>9');
    expect(redact(text, [f('A', 2, 4, 0.9), f('B', 0, 9, 0.5)])).toBe('<A>9');
    expect(redact(text, [f('A', 0, 4, 0.5), f('B', 0, 6, 0.5)])).toBe('<B>6789');
    expect(redact(text, [f('B', 3, 6, 0.5), f('A', 0, 3, 0.5), f('C', 1, 4, 0.5)])).toBe('<A>6789');
    // Same input in another order gives the same output.
    expect(redact(text, [f('C', 1, 4, 0.5), f('A', 0, 3, 0.5), f('B', 3, 6, 0.5)])).toBe('<A>6789');
    expect(redact(text, [f('A', 0, 3, 0.5), f('B', 3, 6, 0.5)])).toBe('<A><B>6789');
  });
  it('returns well-formed, non-overlapping spans', () => {
    const spans = resolveOverlaps([f('A', 0, 5, 0.2), f('B', 4, 8, 0.9), f('C', 10, 12, 0.1)]);
    expect(spans).toEqual([
      { start: 0, end: 8, type: 'B' },
      { start: 10, end: 12, type: 'C' },
    ]);
  });
  it('works on code-point offsets with emoji and CJK text', () => {
    const text = '👩‍💻 写信给 张伟 at zw@example.cn 😀 or 身份证 11010519491231002X';
    const result = createPiiEngine().scan(text);
    for (const e of result.entities) {
      const slice = [...text].slice(e.start, e.end).join('');
      expect(slice.length).toBeGreaterThan(0);
      if (e.type === 'EMAIL_ADDRESS') expect(slice).toBe('zw@example.cn');
      if (e.type === 'PIPL_NATIONAL_ID') expect(slice).toBe('11010519491231002X');
    }
    expect(result.redacted_text).toBe('👩‍💻 写信给 张伟 at <EMAIL_ADDRESS> 😀 or 身份证 <PIPL_NATIONAL_ID>');
    const cp = [...text];
    const start = cp.indexOf('张');
    expect(redact(text, [f('PERSON', start, start + 2, 0.85)])).toContain('写信给 <PERSON> at');
  });
  it('keeps offsets consistent around lone surrogates (invalid UTF-16)', () => {
    const text = '\uD800 mail a@example.com \uDC00 end 😀';
    const result = createPiiEngine().scan(text);
    const email = result.entities.find((e) => e.type === 'EMAIL_ADDRESS');
    expect(email && [...text].slice(email.start, email.end).join('')).toBe('a@example.com');
    expect(result.redacted_text).toBe('\uD800 mail <EMAIL_ADDRESS> \uDC00 end 😀');
  });
});
