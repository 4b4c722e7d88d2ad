import { create } from 'zustand';
import { type OpInput, type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

type View = OpOutput<'settings.get'>;

type SettingsState = {
  readonly view: View | null;
  readonly saving: boolean;
  readonly error: string | null;
  readonly saved: boolean;
  load(): Promise<void>;
  save(change: OpInput<'settings.update'>): Promise<void>;
};

/** Built over a given Transport (store tests inject a fake); `useSettings` is the app's. */
export const createSettingsStore = (via: Transport, callOp = opCaller(via)) =>
  create<SettingsState>((set) => ({
    view: null,
    saving: false,
    error: null,
    saved: false,
    load: async () => {
      try {
        set({ view: await callOp('settings.get', {}), error: null });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    save: async (change) => {
      set({ saving: true, error: null, saved: false });
      try {
        set({ view: await callOp('settings.update', change), saved: true });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ saving: false });
      }
    },
  }));

export const useSettings = createSettingsStore(transport);
