/**
 * Runs user-supplied regexes in a worker thread with a hard time limit, synchronously for the caller
 * (Atomics.wait + receiveMessageOnPort). A regex that exceeds the limit terminates the worker and raises
 * AppError('UNPROCESSABLE') — a scan never silently skips a recognizer (Presidio logs and skips).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';

/** Wall-clock budget for all user regexes of one scan. */
export const USER_REGEX_TIMEOUT_MS = 2000;

export type GuardedPattern = { readonly source: string; readonly flags: string };
/** Per pattern, the [start, end) UTF-16 spans of its non-empty matches. */
export type GuardedMatches = Array<Array<[number, number]>>;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ port, flag, patterns, text }) => {
  let result;
  try {
    result = { ok: true, spans: patterns.map(({ source, flags }) => {
      const re = new RegExp(source, flags.includes('g') ? flags : flags + 'g');
      const spans = [];
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0].length === 0) { re.lastIndex++; continue; }
        spans.push(m.index, m.index + m[0].length);
      }
      return spans;
    }) };
  } catch (error) {
    result = { ok: false, message: String(error && error.message) };
  }
  port.postMessage(result);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let worker: Worker | undefined;

const getWorker = (): Worker => {
  if (!worker) {
    worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
  }
  return worker;
};

type WorkerReply = { ok: true; spans: number[][] } | { ok: false; message: string };

/** Matches every pattern against `text` within `timeoutMs`, or throws. */
export const runGuardedPatterns = (
  patterns: readonly GuardedPattern[],
  text: string,
  timeoutMs = USER_REGEX_TIMEOUT_MS,
): GuardedMatches => {
  if (patterns.length === 0) return [];
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  getWorker().postMessage({ port: port2, flag, patterns, text }, [port2]);
  const outcome = Atomics.wait(flag, 0, 0, timeoutMs);
  if (outcome === 'timed-out') {
    void worker?.terminate();
    worker = undefined;
    port1.close();
    throw new AppError('UNPROCESSABLE', `a user-supplied regex exceeded its ${timeoutMs} ms budget; scan aborted`);
  }
  const reply = receiveMessageOnPort(port1)?.message as WorkerReply | undefined;
  port1.close();
  if (!reply) throw new AppError('INTERNAL', 'regex worker returned no result');
  if (!reply.ok) throw new AppError('UNPROCESSABLE', `user-supplied regex failed: ${reply.message}`);
  return reply.spans.map((flat) => {
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i] as number, flat[i + 1] as number]);
    return pairs;
  });
};
