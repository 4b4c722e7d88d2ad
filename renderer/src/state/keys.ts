import { create } from 'zustand';
import { type OpInput, type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

type KeyList = OpOutput<'keys.list'>;
type CreatedKey = OpOutput<'keys.create'>;

type KeysState = {
  readonly keys: KeyList;
  readonly loading: boolean;
  readonly error: string | null;
  /** The secret of the key just created or rotated: shown once, then forgotten. */
  readonly revealed: CreatedKey | null;
  load(): Promise<void>;
  create(input: OpInput<'keys.create'>): Promise<void>;
  rotate(id: string, graceSeconds: number): Promise<void>;
  revoke(id: string): Promise<void>;
  dismissSecret(): void;
};

/** Built over a given Transport (store tests inject a fake); `useKeys` is the app's. */
export const createKeysStore = (via: Transport, callOp = opCaller(via)) =>
  create<KeysState>((set, get) => {
    const guarded = async (work: () => Promise<void>): Promise<void> => {
      set({ loading: true, error: null });
      try {
        await work();
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ loading: false });
      }
    };
    return {
      keys: [],
      loading: false,
      error: null,
      revealed: null,
      load: () => guarded(async () => set({ keys: await callOp('keys.list', {}) })),
      create: (input) =>
        guarded(async () => {
          set({ revealed: await callOp('keys.create', input) });
          set({ keys: await callOp('keys.list', {}) });
        }),
      rotate: (id, graceSeconds) =>
        guarded(async () => {
          set({ revealed: await callOp('keys.rotate', { id, grace_seconds: graceSeconds }) });
          set({ keys: await callOp('keys.list', {}) });
        }),
      revoke: (id) =>
        guarded(async () => {
          await callOp('keys.revoke', { id });
          await get().load();
        }),
      dismissSecret: () => set({ revealed: null }),
    };
  });

export const useKeys = createKeysStore(transport);
