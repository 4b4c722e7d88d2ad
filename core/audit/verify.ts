import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import { GENESIS_HASH, computeRecordHash, hashWithCanonicalPayload } from './chain.ts';
import type { Queryable } from '../store/database.ts';
import { chainHead } from './chain-writer.ts';
import { rowToRecord } from './store.ts';
import { chainRows } from './evidence-rows.ts';
import type { EvidenceRow } from './evidence-rows.ts';

export type ChainVerification = {
  project_id: string;
  valid: boolean;
  /** Records re-hashed before the walk stopped. */
  checked: number;
  head_seq: number;
  head_hash: string;
  /** First seq whose record, link or position is wrong; null when valid. */
  first_broken_seq: number | null;
  reason: string | null;
};

/** Recomputes a stored row's hash: the stored JCS text first, then a re-canonicalisation if it was rewritten. */
const rehash = (row: EvidenceRow): string | null => {
  const fast = hashWithCanonicalPayload(row, row.payload);
  if (fast === row.hash) return fast;
  try {
    return computeRecordHash(rowToRecord(row));
  } catch {
    return null;
  }
};

/** Rows per page read, and between progress reports and event-loop turns. */
const pageRows = 2000;

const checkRow = (row: EvidenceRow, expectedSeq: number, prevHash: string): string | null => {
  if (row.seq !== expectedSeq) return `expected seq ${expectedSeq}, found ${row.seq} (record missing)`;
  if (row.prev_hash !== prevHash) return 'prev_hash does not match the previous record hash';
  const recomputed = rehash(row);
  if (recomputed === null) return 'payload is not valid JSON';
  if (recomputed !== row.hash) return 'hash does not match the record content';
  return null;
};

/**
 * Walks a project's whole chain from seq 1: re-hashes every record, checks each link and that seq has no gap,
 * and that the recorded head is the last record (a truncated tail is a break). Yields to the event loop
 * between pages; `onProgress` gets (checked, head_seq).
 */
export const verifyChain = async (
  app: App,
  projectId: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ChainVerification> => {
  // Head and every page from one read snapshot: appends while the walk runs cannot make it see a chain that
  // never existed (a head newer than the pages, or a page boundary mid-append).
  const snapshot = await app.database.snapshot();
  try {
    return await walkChain(snapshot, projectId, onProgress);
  } finally {
    await snapshot.close();
  }
};

const walkChain = async (
  db: Queryable,
  projectId: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ChainVerification> => {
  const head = await chainHead(db, projectId);
  if (head === undefined) throw new AppError('NOT_FOUND', `No evidence for project ${projectId}`);
  const result = (checked: number, broken: number | null, reason: string | null): ChainVerification => ({
    project_id: projectId,
    valid: broken === null,
    checked,
    head_seq: head.head_seq,
    head_hash: head.head_hash,
    first_broken_seq: broken,
    reason,
  });
  let expected = 1;
  let prevHash = GENESIS_HASH;
  for await (const row of chainRows(db, projectId, 1, Number.MAX_SAFE_INTEGER, pageRows)) {
    const problem = checkRow(row, expected, prevHash);
    if (problem !== null) return result(expected - 1, expected, problem);
    prevHash = row.hash;
    expected += 1;
    if ((expected - 1) % pageRows === 0) {
      onProgress?.(expected - 1, head.head_seq);
      await yieldToLoop();
    }
  }
  const last = expected - 1;
  if (last !== head.head_seq) return result(last, last + 1, `chain ends at seq ${last} but its head is seq ${head.head_seq}`);
  if (prevHash !== head.head_hash) return result(last, last, 'last record hash differs from the recorded chain head');
  onProgress?.(last, head.head_seq);
  return result(last, null, null);
};
