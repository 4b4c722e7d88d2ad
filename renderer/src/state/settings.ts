import { create } from 'zustand';
import type { OpInput, OpOutput } from '../transport/index.ts';
import { callOp, messageOf } from './call.ts';

type View = OpOutput<'settings.get'>;

type SettingsState = {
  readonly view: View | null;
  readonly saving: boolean;
  readonly error: string | null;
  readonly saved: boolean;
  load(): Promise<void>;
  save(change: OpInput<'settings.update'>): Promise<void>;
};

export const useSettings = create<SettingsState>((set) => ({
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
