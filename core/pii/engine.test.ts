import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createPiiEngine } from './engine.ts';
import { creditCard, iban, piplId, seededRng } from './test/generators.ts';
import type { Finding, Recognizer } from './types.ts';

const engine = createPiiEngine();
const textOf = (text: string, f: Finding): string => [...text].slice(f.start, f.end).join('');
const found = (text: string, options: Parameters<typeof engine.scan>[1] = {}) =>
  engine.scan(text, options).entities.map((f) => ({ type: f.type, text: textOf(text, f), score: f.score }));
const expectAppError = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    return error as AppError;
  }
  throw new Error('expected an AppError');
};

describe('context enhancement (Presidio defaults)', () => {
  it('lifts 0.05 to 0.4 and records the context word', () => {
    const result = engine.scan('my ssn is 536221234', { entities: ['US_SSN'], returnExplanation: true });
    expect(result.entities).toHaveLength(1);
    expect(result.entities[0]?.score).toBeCloseTo(0.4);
    expect(result.entities[0]?.explanation?.contextWord).toBe('ssn');
    expect(result.entities[0]?.explanation?.originalScore).toBe(0.05);
  });
  it('lifts 0.3 to 0.65', () => {
    const [hit] = found('driver license a1234567', { entities: ['US_DRIVER_LICENSE'] });
    expect(hit?.score).toBeCloseTo(0.65);
  });
  it('only looks at the 5 keywords before the finding (stop words skipped)', () => {
    const far = found('ssn one two three four five six 536221234', { entities: ['US_SSN'] });
    expect(far[0]?.score).toBeCloseTo(0.05);
    const near = found('the ssn of the account is 536221234', { entities: ['US_SSN'] });
    expect(near[0]?.score).toBeCloseTo(0.4);
  });
  it('uses request context words like lemmas of the window', () => {
    const [hit] = found('number 536221234', { entities: ['US_SSN'], context: ['social security'] });
    expect(hit?.score).toBeCloseTo(0.4);
  });
  it('matches by substring, like Presidio (lic ⊂ public)', () => {
    const [hit] = found('public a1234567', { entities: ['US_DRIVER_LICENSE'] });
    expect(hit?.score).toBeCloseTo(0.65);
  });
});

describe('reference examples', () => {
  it('finds `b ab 1234` as DE_KFZ (case-insensitive patterns, flags 26)', () => {
    expect(found('b ab 1234', { language: 'de', entities: ['DE_KFZ'] })).toEqual([{ type: 'DE_KFZ', text: 'b ab 1234', score: 0.3 }]);
  });
  it('invalidates SSNs like Presidio', () => {
    for (const bad of [
      '078-05-1120',
      '666-12-3456',
      '000-12-3456',
      '123-00-4567',
      '123-45-0000',
      '111-11-1111',
      '123-45 6789',
      '123456789',
    ]) {
      expect(found(bad, { entities: ['US_SSN'] }), bad).toEqual([]);
    }
    expect(found('536-22-1234', { entities: ['US_SSN'] })).toEqual([{ type: 'US_SSN', text: '536-22-1234', score: 0.5 }]);
  });
  it('returns every overlapping type for 9 bare digits', () => {
    const types = found('536221234').map((f) => f.type);
    expect(types).toEqual(expect.arrayContaining(['US_SSN', 'US_PASSPORT', 'US_DRIVER_LICENSE', 'US_BANK_NUMBER']));
  });
  it('keeps one finding per type when spans are contained (remove_duplicates)', () => {
    const dates = found('on 2024-01-15 we met').filter((f) => f.type === 'DATE_TIME');
    expect(dates).toEqual([{ type: 'DATE_TIME', text: '2024-01-15', score: 0.6 }]);
  });
  it('lifts checksum-valid hits to 1.0 and drops failures', () => {
    const rng = seededRng(1);
    const card = creditCard(rng);
    expect(found(`pay ${card}`, { entities: ['CREDIT_CARD'] })).toEqual([{ type: 'CREDIT_CARD', text: card, score: 1 }]);
    expect(found('pay 4111 1111 1111 1112', { entities: ['CREDIT_CARD'] })).toEqual([]);
    const code = iban(rng);
    expect(found(`to ${code}`, { entities: ['IBAN_CODE'] })).toEqual([{ type: 'IBAN_CODE', text: code, score: 1 }]);
    // ISO 13616 capitals: a lower-case country code is not an IBAN (Presidio would keep it at 0.5).
    expect(found(`to ${code.toLowerCase()}`, { entities: ['IBAN_CODE'] })).toEqual([]);
  });
  it('scores IPs and rejects impossible ones', () => {
    expect(found('host 2001:db8::1 and 999.1.1.1', { entities: ['IP_ADDRESS'] })).toEqual([
      { type: 'IP_ADDRESS', text: '2001:db8::1', score: 0.6 },
    ]);
    expect(found('route 10.0.0.0/8', { entities: ['IP_ADDRESS'] })[0]?.text).toBe('10.0.0.0/8');
    expect(found('x :: y', { entities: ['IP_ADDRESS'] })).toEqual([{ type: 'IP_ADDRESS', text: '::', score: 0.1 }]);
  });
  it('checks e-mail domains against the public suffix list', () => {
    expect(found('a@example.com b@example.notatld', { entities: ['EMAIL_ADDRESS'] })).toEqual([
      { type: 'EMAIL_ADDRESS', text: 'a@example.com', score: 1 },
    ]);
  });
});

describe('PIPL_NATIONAL_ID', () => {
  const rng = seededRng(7);
  it('validates region, birth date and the MOD 11-2 check character', () => {
    const id = piplId(rng);
    expect(found(`id ${id}`, { entities: ['PIPL_NATIONAL_ID'] })).toEqual([{ type: 'PIPL_NATIONAL_ID', text: id, score: 1 }]);
    const wrongCheck = id.slice(0, 17) + (id[17] === '0' ? '1' : '0');
    expect(found(`id ${wrongCheck}`, { entities: ['PIPL_NATIONAL_ID'] })).toEqual([]);
    expect(found('id 99010519491231002X', { entities: ['PIPL_NATIONAL_ID'] })).toEqual([]);
    expect(found('id 11010520991231002X', { entities: ['PIPL_NATIONAL_ID'] })).toEqual([]);
  });
  it('accepts the reference example with an X check character and Chinese context', () => {
    expect(found('身份证号码：11010519491231002X', { language: 'zh' })).toEqual([
      { type: 'PIPL_NATIONAL_ID', text: '11010519491231002X', score: 1 },
    ]);
  });
  it('keeps the 15-digit legacy form at 0.3 (0.65 with context)', () => {
    expect(found('old 110105491231002', { entities: ['PIPL_NATIONAL_ID'] })).toEqual([
      { type: 'PIPL_NATIONAL_ID', text: '110105491231002', score: 0.3 },
    ]);
    expect(found('resident 110105491231002', { entities: ['PIPL_NATIONAL_ID'] })[0]?.score).toBeCloseTo(0.65);
  });
});

describe('filters, thresholds, allow and deny lists', () => {
  it('applies the global and per-entity thresholds', () => {
    const text = 'mail a@example.com, ref 536221234';
    expect(found(text, { scoreThreshold: 0.5 }).map((f) => f.type)).toEqual(['EMAIL_ADDRESS']);
    const both = { entities: ['EMAIL_ADDRESS', 'US_SSN'] };
    expect(found(text, { ...both, perEntityThresholds: { US_SSN: 0.5 } }).map((f) => f.type)).toEqual(['EMAIL_ADDRESS']);
    expect(found(text, { ...both, scoreThreshold: 0.5, perEntityThresholds: { US_SSN: 0 } }).map((f) => f.type)).toEqual([
      'EMAIL_ADDRESS',
      'US_SSN',
    ]);
  });
  it('drops allow-listed values (exact and regex)', () => {
    const text = 'a@example.com b@example.org';
    expect(found(text, { allowList: ['a@example.com'] }).map((f) => f.text)).toEqual(['b@example.org']);
    expect(found(text, { allowList: ['@example\\.(com|org)$'], allowListMatch: 'regex' })).toEqual([]);
  });
  it('reports deny-listed words and regexes', () => {
    const text = 'Project Falcon ships with codename ZX-42.';
    const hits = found(text, {
      denyList: [
        { entity: 'CODENAME', values: ['falcon'] },
        { entity: 'CODENAME', values: ['zx-\\d+'], match: 'regex', score: 0.7 },
      ],
      entities: ['CODENAME'],
    });
    expect(hits).toEqual([
      { type: 'CODENAME', text: 'Falcon', score: 1 },
      { type: 'CODENAME', text: 'ZX-42', score: 0.7 },
    ]);
  });
  it('runs opt-in recognizers only when their entity is requested', () => {
    const text = 'NINO AB 12 34 56 C';
    expect(found(text).some((f) => f.type === 'UK_NINO')).toBe(false);
    expect(found(text, { entities: ['UK_NINO'] }).map((f) => f.text)).toEqual(['AB 12 34 56 C']);
  });
  it('rejects unknown languages and entities', () => {
    expectAppError(() => engine.scan('x', { language: 'xx' }), 'VALIDATION');
    expectAppError(() => engine.scan('x', { entities: ['NOPE'] }), 'VALIDATION');
    expectAppError(() => engine.scan('x', { scoreThreshold: 1.5 }), 'VALIDATION');
    expectAppError(() => engine.scan('x', { perEntityThresholds: { US_SSN: -1 } }), 'VALIDATION');
  });
  it('orders by score desc, start asc, length desc', () => {
    const entities = engine.scan('536221234 a@example.com 2024-01-15').entities;
    for (let i = 1; i < entities.length; i++) {
      const a = entities[i - 1] as Finding;
      const b = entities[i] as Finding;
      expect(a.score > b.score || (a.score === b.score && a.start <= b.start)).toBe(true);
    }
  });
  it('returns explanations only when asked', () => {
    expect(engine.scan('a@example.com').entities[0]?.explanation).toBeUndefined();
    const e = engine.scan('email a@example.com', { returnExplanation: true }).entities[0]?.explanation;
    expect(e).toMatchObject({
      recognizer: 'EmailRecognizer',
      pattern: 'Email (Medium)',
      originalScore: 0.5,
      score: 1,
      validationResult: true,
      contextWord: 'email',
    });
    expect(e?.textualExplanation).toContain('checksum valid');
  });
});

describe('ad-hoc and custom recognizers', () => {
  const zip = { name: 'Zip', supported_entity: 'ZIP', patterns: [{ name: 'zip5', regex: '\\b\\d{5}\\b', score: 0.4 }], context: ['zip'] };
  it('runs request ad-hoc recognizers with context, case-insensitively', () => {
    expect(found('zip 12345', { adHocRecognizers: [zip], entities: ['ZIP'] })).toEqual([{ type: 'ZIP', text: '12345', score: 0.75 }]);
    const word = { name: 'W', supported_entity: 'WORD', patterns: [{ name: 'w', regex: 'secret', score: 0.9 }] };
    expect(found('TOP SECRET', { adHocRecognizers: [word] }).map((f) => f.text)).toEqual(['SECRET']);
  });
  it('rejects unsafe user regexes before running them', () => {
    for (const regex of ['(a+)+$', '(?:a+)+', '(\\w+\\s?)*x', '(?:\\w+\\s?)*x', '(a|aa)*b', '(?=x)y', '(?<!x)y', '(a)\\1', '(\\d+-){3}']) {
      const error = expectAppError(
        () =>
          engine.scan('x', { adHocRecognizers: [{ name: 'bad', supported_entity: 'BAD', patterns: [{ name: 'p', regex, score: 0.5 }] }] }),
        'VALIDATION',
      );
      expect(error.message).toMatch(/unsafe regex|invalid regex/);
    }
    for (const regex of ['\\d{3}-\\d{4}', '(\\d{3}-){2}\\d{4}', '(?:ab)?c+', '[a-z]+@[a-z]+']) {
      expect(() =>
        engine.scan('x', { adHocRecognizers: [{ name: 'ok', supported_entity: 'OK', patterns: [{ name: 'p', regex, score: 0.5 }] }] }),
      ).not.toThrow();
    }
  });
  it('fails loudly (never open) when a user regex exceeds its time budget', () => {
    const slow = { name: 'slow', supported_entity: 'SLOW', patterns: [{ name: 'p', regex: 'a*a*a*a*a*a*b', score: 0.5 }] };
    expectAppError(() => engine.scan('a'.repeat(5000), { adHocRecognizers: [slow] }), 'UNPROCESSABLE');
    expect(found('zip 12345', { adHocRecognizers: [zip], entities: ['ZIP'] })).toHaveLength(1);
  });
  it('loads custom recognizers from a JSON file and rejects a bad file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pii-custom-'));
    const file = join(dir, 'recognizers.json');
    writeFileSync(file, JSON.stringify({ recognizers: [zip, { name: 'Deny', supported_entity: 'TEAM', deny_list: ['blue team'] }] }));
    const custom = createPiiEngine({ customRecognizersFile: file });
    expect(custom.entityTypes('en')).toEqual(expect.arrayContaining(['ZIP', 'TEAM']));
    const text = 'the Blue Team lives at zip 12345';
    expect(custom.scan(text).entities.map((f) => textOf(text, f))).toEqual(['Blue Team', '12345']);
    writeFileSync(file, JSON.stringify([{ name: 'bad', supported_entity: 'B', patterns: [{ name: 'p', regex: '(a+)+', score: 1 }] }]));
    expectAppError(() => createPiiEngine({ customRecognizersFile: file }), 'VALIDATION');
    expectAppError(() => createPiiEngine({ customRecognizersFile: join(dir, 'missing.json') }), 'VALIDATION');
  });
});

describe('offsets are code points', () => {
  it('converts recognizer UTF-16 offsets for emoji and CJK text', () => {
    const fake: Recognizer = {
      name: 'Fake',
      supportedEntities: ['PERSON'],
      supportedLanguages: ['en'],
      context: [],
      analyze: ({ text }) => {
        const i = text.indexOf('王小明');
        return [{ type: 'PERSON', start: i, end: i + 3, score: 0.85 }];
      },
    };
    const withNer = createPiiEngine({ extraRecognizers: [fake] });
    const text = '😀😀 王小明 mail 😀 x@example.com 身份证 11010519491231002X';
    const result = withNer.scan(text);
    const byType = Object.fromEntries(result.entities.map((f) => [f.type, textOf(text, f)]));
    expect(byType).toEqual({ PERSON: '王小明', EMAIL_ADDRESS: 'x@example.com', PIPL_NATIONAL_ID: '11010519491231002X' });
    expect(result.redacted_text).toBe('😀😀 <PERSON> mail 😀 <EMAIL_ADDRESS> 身份证 <PIPL_NATIONAL_ID>');
  });
});
