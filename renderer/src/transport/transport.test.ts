import { describe, expectTypeOf, it } from 'vitest';
import type { OpResult } from '../../../core/ops/define.ts';
import type { operations } from '../../../core/ops/table.ts';
import type { OpInput, OpName, OpOutput, Transport } from './transport.ts';

type Table = typeof operations;

describe("the renderer's operation types follow the ops table", () => {
  it('names are exactly the table keys', () => {
    expectTypeOf<OpName>().toEqualTypeOf<keyof Table>();
  });

  it('inputs are the schemas input types, outputs the handlers results', () => {
    expectTypeOf<OpInput<'cec.getBundle'>>().toEqualTypeOf<{ bundle_id: string }>();
    expectTypeOf<OpOutput<'svc.status'>>().toEqualTypeOf<Awaited<ReturnType<Table['svc.status']['handler']>>>();
    expectTypeOf<OpOutput<'svc.status'>['status']>().toEqualTypeOf<'ok'>();
  });

  it('Transport.call takes the op input and resolves to its envelope', () => {
    type Call = Transport['call'];
    expectTypeOf<Parameters<Call>[0]>().toEqualTypeOf<OpName>();
    expectTypeOf<ReturnType<Transport['call']>>().toExtend<Promise<OpResult<unknown>>>();
    const call = (() => Promise.resolve({ ok: true, value: null })) as unknown as Call;
    expectTypeOf(call<'svc.status'>).returns.resolves.toEqualTypeOf<OpResult<OpOutput<'svc.status'>>>();
    expectTypeOf(call<'cec.getBundle'>)
      .parameter(1)
      .toEqualTypeOf<{ bundle_id: string }>();
  });
});
