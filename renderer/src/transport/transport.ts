import type { AppEvents, AppEventName } from '../../../core/app.ts';
import type { OpResult } from '../../../core/ops/define.ts';
import type { OpInput, OpName, OpOutput } from '../../../core/ops/table.ts';

import type { CallOptions, WorkbenchBridge } from '../../../core/contracts/ipc.ts';
import type { SessionInfo } from '../../../core/contracts/session.ts';

export type { CallOptions, OpInput, OpName, OpOutput, OpResult, SessionInfo, WorkbenchBridge };

/** One way to reach the core: IPC in Electron, fetch + server-sent events in a browser. Types come from the ops table. */
export type Transport = {
  readonly kind: 'ipc' | 'http';
  call<N extends OpName>(name: N, input: OpInput<N>, options?: CallOptions): Promise<OpResult<OpOutput<N>>>;
  subscribe<E extends AppEventName>(name: E, listener: (payload: AppEvents[E]) => void): () => void;
  readonly session: SessionApi;
  /**
   * Verifies a bundle ZIP the user picked. IPC sends it inline to `cec.verifyUpload`; a browser streams it to
   * the upload route, since the op route caps JSON bodies at 1 MiB.
   */
  verifyBundleFile(file: Blob): Promise<OpResult<OpOutput<'cec.verifyBundle'>>>;
};

/**
 * The web session (browser only; in Electron the local user is always signed in). Part of the Transport so
 * stores never call fetch themselves and tests can hand them a fake.
 */
export type SessionApi = {
  /** The current session; rejects when the server cannot be reached. */
  current(): Promise<SessionInfo>;
  /** Signs in with an admin API key (break-glass); false when the key is refused. */
  loginWithKey(apiKey: string): Promise<boolean>;
  logout(): Promise<void>;
};

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}
