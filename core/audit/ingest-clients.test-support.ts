import { expect } from 'vitest';
import { z } from 'zod';
import type { App } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

/** A server instance as a client sees it: its loopback origin and a bearer credential (API key or session JWT). */
export type Instance = { readonly url: string; readonly key: string };

/** POSTs one batch to `project`; resolves to the record ids when the server acknowledged them (201), else to null. */
const post = async (instance: Instance, project: string, ids: readonly string[]): Promise<readonly string[] | null> => {
  try {
    const response = await fetch(`${instance.url}/v1/audit/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${instance.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(ids.map((record_id, i) => ({ ...exampleEvidence(i, project), record_id }))),
    });
    await response.arrayBuffer();
    return response.status === 201 ? ids : null;
  } catch {
    return null; // connection refused or reset: not acknowledged
  }
};

export type IngestOptions = {
  readonly project: string;
  /** How many batches in all, taken in turn by every client of every instance. */
  readonly requests: number;
  readonly size: number;
  /** Concurrent clients per instance. */
  readonly clients: number;
  /** Checked before each request: true ends that client (e.g. its instance was killed). */
  readonly stop?: (instance: Instance) => boolean;
};

/**
 * Sends batches through `clients` concurrent clients per instance. Resolves to the ids the servers acknowledged,
 * how many of them each instance acknowledged (in the order of `instances`), and how many batches were refused or
 * lost (no 201).
 */
export const ingest = async (
  instances: readonly Instance[],
  options: IngestOptions,
): Promise<{ acknowledged: string[]; byInstance: number[]; failed: number }> => {
  const acknowledged: string[] = [];
  const byInstance = instances.map(() => 0);
  let failed = 0;
  let next = 0;
  const client = async (instance: Instance, index: number): Promise<void> => {
    while (next < options.requests && !options.stop?.(instance)) {
      const request = next++;
      const ids = Array.from({ length: options.size }, (_, k) => `${options.project}-r${request}-${k}`);
      const acked = await post(instance, options.project, ids);
      if (acked === null) failed += 1;
      else {
        acknowledged.push(...acked);
        byInstance[index] = (byInstance[index] ?? 0) + acked.length;
      }
    }
  };
  await Promise.all(instances.flatMap((instance, index) => Array.from({ length: options.clients }, () => client(instance, index))));
  return { acknowledged, byInstance, failed };
};

/** Every acknowledged record once, seq 1..n without gap or duplicate, and a chain that verifies. Returns n. */
export const expectOneTruth = async (app: App, project: string, acknowledged: readonly string[]): Promise<number> => {
  const rows = await app.database.all(
    z.object({ seq: z.number(), record_id: z.string() }),
    'SELECT seq, record_id FROM audit_records WHERE project_id = ? ORDER BY seq',
    [project],
  );
  expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
  const stored = new Set(rows.map((row) => row.record_id));
  expect(stored.size).toBe(rows.length);
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(new Set(acknowledged).size).toBe(acknowledged.length);
  expect(await verifyChain(app, project)).toMatchObject({ valid: true, head_seq: rows.length, first_broken_seq: null });
  return rows.length;
};
