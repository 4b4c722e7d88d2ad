import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';
import { definePatternRecognizer } from './pattern.ts';

const spansOf = (recognizer: ReturnType<typeof definePatternRecognizer>, text: string) =>
  recognizer.analyze({ text, language: 'en' }).map((f) => text.slice(f.start, f.end));

describe('a pattern that requires a sequence', () => {
  const tagged = (requires: RegExp) =>
    definePatternRecognizer({
      name: 'T',
      entity: 'T',
      languages: ['en'],
      context: [],
      patterns: [{ name: 'tag', regex: /#\d{3}/, score: 0.5, requires }],
    });

  it('runs its regex only on texts that hold the sequence', () => {
    expect(spansOf(tagged(/#/), 'tags #123 and #456')).toEqual(['#123', '#456']);
    expect(spansOf(tagged(/@/), 'tags #123 and #456')).toEqual([]);
  });

  it('tests each text from its start, even when given a global regex', () => {
    const recognizer = tagged(/#\d/g);
    expect(spansOf(recognizer, 'one #123')).toEqual(['#123']);
    expect(spansOf(recognizer, '#456')).toEqual(['#456']);
  });
});

describe('built-in patterns with a required sequence still find what their regex finds', () => {
  const engine = createPiiEngine();
  const found = (text: string): string[] =>
    engine
      .scan(text, { entities: ['MAC_ADDRESS', 'IP_ADDRESS', 'URL'], returnExplanation: true })
      .entities.map((f) => `${f.explanation?.pattern}: ${[...text].slice(f.start, f.end).join('')}`);

  it.each([
    ['Router aaaa.bbbb.cccc and 0A1B.2C3D.4E5F.', ['MAC Cisco: aaaa.bbbb.cccc', 'MAC Cisco: 0A1B.2C3D.4E5F']],
    ['Hosts 2001:db8::1 and ::ffff:192.0.2.1.', ['IPv6: 2001:db8::1', 'IPv6: ::ffff:192.0.2.1']],
    [`Links "example.com/a" and 'www.shop1.de'`, ['Quoted URL: example.com/a', 'Quoted URL: www.shop1.de']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });
});
