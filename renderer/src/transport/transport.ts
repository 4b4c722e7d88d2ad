import type { AppEvents, AppEventName } from '../../../core/app.ts';
import type { OpResult } from '../../../core/ops/define.ts';
import type { OpInput, OpName, OpOutput } from '../../../core/ops/table.ts';

export type { OpInput, OpName, OpOutput, OpResult };
export type CallOptions = { readonly requestId?: string };

/** One way to reach the core: IPC in Electron, fetch + server-sent events in a browser. Types come from the ops table. */
export type Transport = {
  readonly kind: 'ipc' | 'http';
  call<N extends OpName>(name: N, input: OpInput<N>, options?: CallOptions): Promise<OpResult<OpOutput<N>>>;
  subscribe<E extends AppEventName>(name: E, listener: (payload: AppEvents[E]) => void): () => void;
};

/** What the preload script exposes as `window.workbench` (it knows no operation names). */
export type WorkbenchBridge = {
  call(name: string, input: unknown, options?: CallOptions): Promise<unknown>;
  subscribe(name: string, listener: (payload: unknown) => void): () => void;
};

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}
