import { httpTransport } from './http.ts';
import { ipcTransport } from './ipc.ts';
import type { Transport } from './transport.ts';

export type { OpInput, OpName, OpOutput, OpResult, Transport } from './transport.ts';

/** Picked once at start-up: the preload bridge when Electron provides it, else HTTP to our own origin. */
export const transport: Transport = typeof window !== 'undefined' && window.workbench ? ipcTransport(window.workbench) : httpTransport();

/** A fresh id to correlate a long call with its progress events. */
export const newRequestId = (): string => crypto.randomUUID();
