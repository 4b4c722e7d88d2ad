import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../app.ts';
import { combine, defineOp } from './define.ts';
import { type CallContext, invokeOp } from './dispatch.ts';
import { type OpInput, type OpName, type OpOutput, operationEntries, operations } from './table.ts';

const op = (summary: string) =>
  defineOp({ summary, input: z.object({ n: z.number() }), access: 'read', tier: 'free', handler: async (input) => input.n * 2 });

describe('combine', () => {
  it('merges the slices and keeps every op', () => {
    const table = combine({ 'a.one': op('one') }, { 'b.two': op('two') });
    expect(Object.keys(table)).toEqual(['a.one', 'b.two']);
    expect(table['b.two'].summary).toBe('two');
  });

  it('throws on a name defined twice instead of letting the later slice override', () => {
    expect(() => combine({ 'a.one': op('first') }, { 'a.one': op('second') })).toThrow('Operation a.one is defined twice');
  });

  it('the real table has no duplicate and every entry is served', () => {
    expect(operationEntries().map(([name]) => name)).toEqual(Object.keys(operations));
  });
});

describe('types derived from the table', () => {
  it('names, inputs and outputs follow the ops', () => {
    expectTypeOf<'cec.getBundle'>().toExtend<OpName>();
    expectTypeOf<'no.such'>().not.toExtend<OpName>();
    expectTypeOf<OpInput<'cec.getBundle'>>().toEqualTypeOf<{ bundle_id: string }>();
    expectTypeOf<OpOutput<'svc.status'>>().toEqualTypeOf<Awaited<ReturnType<(typeof operations)['svc.status']['handler']>>>();
    expectTypeOf<OpOutput<'cec.getBundle'>>().not.toBeAny();
    expectTypeOf<OpOutput<'cec.getBundle'>>().toHaveProperty('bundle_id');
  });

  it('invokeOp is typed from the table and still validates at run time', async () => {
    expectTypeOf(invokeOp<'cec.getBundle'>)
      .parameter(1)
      .toEqualTypeOf<{ bundle_id: string }>();
    expectTypeOf(invokeOp<'svc.status'>).returns.resolves.toHaveProperty('sf_pii');
    const app = createApp({ dataDir: ':memory:' });
    try {
      const call: CallContext = { app, actor: { kind: 'local', id: 'test', tier: 'admin', scopes: [] } };
      const status = await invokeOp('svc.status', {}, call);
      expect(status).toHaveProperty('version');
      // @ts-expect-error bundle_id must be a string: the type refuses it, and so does the schema
      await expect(invokeOp('cec.getBundle', { bundle_id: 1 }, call)).rejects.toMatchObject({ code: 'VALIDATION' });
    } finally {
      app.close();
    }
  });
});

describe('the op log line', () => {
  it('is one line per call with the op, request id, actor, duration and outcome, and never the input', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const app = createApp({ dataDir: ':memory:', log: pino({ level: 'info' }, sink) });
    try {
      const call: CallContext = { app, actor: { kind: 'local', id: 'officer', tier: 'admin', scopes: [] }, requestId: 'req-7' };
      await invokeOp('pii.scan', { text: 'Mail maria.gonzalez@example.com today' }, call);
      await expect(invokeOp('cec.getBundle', { bundle_id: 'missing' }, call)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const ops = lines.filter((line) => line.msg === 'op');
      expect(ops).toEqual([
        expect.objectContaining({ level: 30, op: 'pii.scan', requestId: 'req-7', actor: 'officer', outcome: 'ok', ms: expect.any(Number) }),
        expect.objectContaining({ level: 30, op: 'cec.getBundle', requestId: 'req-7', actor: 'officer', outcome: 'NOT_FOUND' }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('maria.gonzalez');
    } finally {
      app.close();
    }
  });
});
