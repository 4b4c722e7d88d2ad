/**
 * Appending evidence to a chain target without the app: what appendEvidence does on the app's connection, and
 * what the PII evidence writer thread (core/pii/pool/evidence-writer-worker.ts) does on its own.
 */
import { AppError } from '../errors.ts';
import type { TransactionOptions } from '../store/database.ts';
import { type ChainTarget, writeChain } from './chain-writer.ts';
import { formatIssues, isProjectId, prepareInput, preparedOrUndefined } from './input.ts';
import type { PreparedInput } from './input.ts';
import { objectList } from './object-list.ts';
import type { EvidenceInput, EvidenceRecord } from './types.ts';

export type Inputs = readonly (EvidenceInput | Readonly<Record<string, unknown>>)[];

/** Throws VALIDATION listing the first 100 invalid inputs by index, if any input is invalid. */
const rejectInvalid = (inputs: Inputs, now: Date): void => {
  const errors: { index: number; message: string }[] = [];
  inputs.forEach((raw, index) => {
    const result = prepareInput(raw, now);
    if (!result.ok && errors.length < 100) errors.push({ index, message: formatIssues(result.issues) });
  });
  if (errors.length > 0) {
    const first = errors[0] as { index: number; message: string };
    throw new AppError('VALIDATION', `${errors.length} invalid record(s), nothing was written; record ${first.index}: ${first.message}`, {
      detail: { errors },
    });
  }
};

/**
 * Validates every input (envelope and payload schema) before anything is written. Throws VALIDATION listing the
 * bad indexes. The valid case is one pass that keeps only the prepared inputs; the first invalid input hands
 * over to rejectInvalid.
 */
const prepareAll = (inputs: Inputs, now: Date): PreparedInput[] => {
  const prepared: PreparedInput[] = [];
  for (const raw of inputs) {
    const input = preparedOrUndefined(raw, now);
    if (input === undefined) break;
    prepared.push(input);
  }
  if (prepared.length < inputs.length) rejectInvalid(inputs, now);
  return prepared;
};

const projectsOf = (prepared: readonly PreparedInput[]): string[] => [...new Set(prepared.map((input) => input.project_id))];

/** Inputs prepared this many at a time inside a SQLite write transaction (see appendEvidence). */
const chunkSize = 256;

/** Thrown inside the write transaction at the first invalid input, so that it rolls back; rejectInvalid then reports. */
class InvalidInput extends Error {
  constructor() {
    super('an evidence input was invalid on one read and valid on the next');
  }
}

/** The inputs prepared `chunkSize` at a time; throws InvalidInput at the first invalid one. */
function* preparedChunks(inputs: Inputs, now: Date): Generator<PreparedInput[]> {
  // Object-kind arrays (object-list.ts): a fresh `[]` per page deoptimised this generator at its first push.
  let chunk: PreparedInput[] = objectList();
  for (let i = 0; i < inputs.length; i++) {
    const input = preparedOrUndefined(inputs[i], now);
    if (input === undefined) throw new InvalidInput();
    chunk.push(input);
    if (chunk.length === chunkSize) {
      yield chunk;
      chunk = objectList();
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The project ids the inputs name, or undefined when one of them has no valid project id (the batch is invalid). */
const namedProjects = (inputs: Inputs): string[] | undefined => {
  const ids = new Set<string>();
  // A batch usually names one project: the pattern runs once per change of id, not once per record.
  let last: unknown;
  for (const raw of inputs) {
    const id = typeof raw === 'object' && raw !== null ? raw.project_id : undefined;
    if (id === last && ids.size > 0) continue;
    if (!isProjectId(id)) return undefined;
    ids.add(id);
    last = id;
  }
  return [...ids];
};

/**
 * Validates every input, then appends all of them to their projects' chains in one transaction on
 * `target` with `now` as their recorded_at, under each project's chain lock (any number of instances on one PostgreSQL database append
 * to one chain without fork, gap or duplicate seq). Throws VALIDATION (nothing written) or CONFLICT on a
 * duplicate record_id (nothing written); VALIDATION wins when a batch has both.
 *
 * On a SQLite connection (`target.sqlite`) the inputs are validated and written 256 at a time inside the one
 * transaction, so each one's JCS text dies young instead of surviving every scavenge of the batch (a quarter of
 * the append's garbage collection, docs/decisions.md "Ingest, fourth pass"). The contract is the same: any
 * failure (an invalid input, a duplicate, an I/O error) rolls the whole batch back, and if any input of the
 * batch is invalid the error is the VALIDATION report over all of them, as when validation ran first. On
 * PostgreSQL validation still runs before the chain locks are taken, so another instance is not kept waiting.
 */
export const appendToChain = async (
  target: ChainTarget,
  inputs: Inputs,
  now: Date,
  commit: TransactionOptions = {},
): Promise<{ records: EvidenceRecord[]; projectIds: string[] }> => {
  const options = { collect: true, recordedAt: now.toISOString(), ...commit };
  let projectIds = target.sqlite === null ? undefined : namedProjects(inputs);
  if (projectIds === undefined) {
    const prepared = prepareAll(inputs, now);
    projectIds = projectsOf(prepared);
    return { records: await writeChain(target, projectIds, () => [prepared], options), projectIds };
  }
  try {
    return { records: await writeChain(target, projectIds, () => preparedChunks(inputs, now), options), projectIds };
  } catch (error) {
    rejectInvalid(inputs, now);
    throw error;
  }
};
