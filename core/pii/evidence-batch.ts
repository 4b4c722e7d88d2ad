/**
 * One group commit of scan evidence, wherever it runs (the app's connection, or the evidence writer thread):
 * the whole batch in one append (one transaction, one fsync); when that fails, each record alone, so one bad
 * record cannot fail the others, unless the batch committed and only its fsync failed (a retry would write it
 * twice).
 */
import type { EvidenceInput } from '../audit/types.ts';
import { CommittedNotSynced } from '../store/database.ts';

/** Each input's outcome, in order: undefined once durable, else what failed it. */
export const appendEach = async (
  append: (inputs: readonly EvidenceInput[]) => Promise<unknown>,
  inputs: readonly EvidenceInput[],
): Promise<unknown[]> => {
  try {
    await append(inputs);
    return inputs.map(() => undefined);
  } catch (error) {
    if (error instanceof CommittedNotSynced) return inputs.map(() => error);
    const outcomes: unknown[] = [];
    for (const input of inputs) {
      try {
        await append([input]);
        outcomes.push(undefined);
      } catch (single) {
        outcomes.push(single);
      }
    }
    return outcomes;
  }
};
