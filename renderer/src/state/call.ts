import { type OpInput, type OpName, type OpOutput, type Transport, transport } from '../transport/index.ts';
import type { CallOptions } from '../transport/transport.ts';

/** An op's failure, carried to the screen as one readable message with its code. */
export class OpFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Calls ops through `via` and returns their values, or throws OpFailure; stores use it inside their actions. */
export const opCaller =
  (via: Transport) =>
  async <N extends OpName>(name: N, input: OpInput<N>, options?: CallOptions): Promise<OpOutput<N>> => {
    const result = await via.call(name, input, options);
    if (!result.ok) throw new OpFailure(result.error.code, result.error.message);
    return result.value;
  };

/** `opCaller` over the app's Transport, for screens that call an op without a store. */
export const callOp = opCaller(transport);

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
