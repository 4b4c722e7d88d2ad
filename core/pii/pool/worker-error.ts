/** Errors across the thread boundary of the PII workers: an AppError keeps its code (a bad request stays a 400). */
import { AppError } from '../../errors.ts';
import type { WorkerError } from './protocol.ts';

export const toWorkerError = (error: unknown): WorkerError => {
  if (error instanceof AppError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error) };
};

export const fromWorkerError = (error: WorkerError): Error =>
  error.code ? new AppError(error.code, error.message) : new Error(error.message);
