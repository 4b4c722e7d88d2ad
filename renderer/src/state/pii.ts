import { create } from 'zustand';
import { type OpInput, type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, OpFailure, opCaller } from './call.ts';

type EntityTypes = OpOutput<'pii.entityTypes'>;
type ScanResult = OpOutput<'pii.scan'>;
type ServiceStatus = OpOutput<'svc.status'>;

type PiiState = {
  readonly types: EntityTypes | null;
  /** The last result and the exact text it was computed on (offsets index that text's code points). */
  readonly result: { readonly text: string; readonly value: ScanResult } | null;
  readonly scanning: boolean;
  readonly error: string | null;
  /** True when the last scan was refused because the pipeline action is `block`. */
  readonly blocked: boolean;
  readonly status: ServiceStatus | null;
  loadTypes(language: string): Promise<void>;
  scan(input: OpInput<'pii.scan'> & { text: string }): Promise<void>;
  loadStatus(): Promise<void>;
};

/** Built over a given Transport (store tests inject a fake); `usePii` is the app's. */
export const createPiiStore = (via: Transport, callOp = opCaller(via)) =>
  create<PiiState>((set) => ({
    types: null,
    result: null,
    scanning: false,
    error: null,
    blocked: false,
    status: null,
    loadTypes: async (language) => {
      try {
        set({ types: await callOp('pii.entityTypes', { language }) });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    scan: async (input) => {
      set({ scanning: true, error: null, blocked: false });
      try {
        const value = await callOp('pii.scan', input);
        set({ result: { text: input.text, value } });
      } catch (error) {
        const blocked = error instanceof OpFailure && error.message === 'PII_DETECTED';
        set({
          result: null,
          blocked,
          error: blocked
            ? 'Blocked (PII_DETECTED): the pipeline action is "block" and personal data was found, so nothing is returned.'
            : messageOf(error),
        });
      } finally {
        set({ scanning: false });
      }
    },
    loadStatus: async () => {
      try {
        set({ status: await callOp('svc.status', {}), error: null });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
  }));

export const usePii = createPiiStore(transport);
