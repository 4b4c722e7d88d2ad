import { create } from 'zustand';
import { type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type OverviewReply = OpOutput<'posture.overview'>;
export type Overview = NonNullable<OverviewReply['overview']>;
export type ChainCheck = OpOutput<'audit.verifyChain'>;
export type BundleCheck = OpOutput<'cec.verifyBundle'>;

type OverviewState = {
  readonly reply: OverviewReply | null;
  readonly loading: boolean;
  readonly busy: boolean;
  readonly error: string | null;
  /** The chain re-verification of the shown project (null while running or when there is no chain). */
  readonly chain: { readonly project: string; readonly result: ChainCheck | null; readonly error: string | null } | null;
  /** Verification results of recent bundles, by bundle id. */
  readonly bundleChecks: Readonly<Record<string, BundleCheck | string>>;
  load(projectId?: string): Promise<void>;
  loadSample(): Promise<void>;
  removeSample(projectId: string): Promise<void>;
  verifyBundle(bundleId: string, zipPath: string): Promise<void>;
};

/** Built over a given Transport (store tests inject a fake); `useOverview` is the app's. */
export const createOverviewStore = (via: Transport, callOp = opCaller(via)) =>
  create<OverviewState>((set, get) => {
    const verifyChain = async (projectId: string): Promise<void> => {
      set({ chain: { project: projectId, result: null, error: null } });
      try {
        const result = await callOp('audit.verifyChain', { project_id: projectId });
        if (get().chain?.project === projectId) set({ chain: { project: projectId, result, error: null } });
      } catch (error) {
        if (get().chain?.project === projectId) set({ chain: { project: projectId, result: null, error: messageOf(error) } });
      }
    };
    return {
      reply: null,
      loading: false,
      busy: false,
      error: null,
      chain: null,
      bundleChecks: {},
      load: async (projectId) => {
        set({ loading: true, error: null });
        try {
          const reply = await callOp('posture.overview', projectId === undefined ? {} : { project_id: projectId });
          set({ reply, bundleChecks: {} });
          const shown = reply.overview;
          if (shown?.chain) void verifyChain(shown.project_id);
          else set({ chain: null });
        } catch (error) {
          set({ error: messageOf(error) });
        } finally {
          set({ loading: false });
        }
      },
      loadSample: async () => {
        set({ busy: true, error: null });
        try {
          const sample = await callOp('posture.loadSample', {});
          await get().load(sample.project_id);
        } catch (error) {
          set({ error: messageOf(error) });
        } finally {
          set({ busy: false });
        }
      },
      removeSample: async (projectId) => {
        set({ busy: true, error: null });
        try {
          await callOp('posture.removeSample', { project_id: projectId });
          await get().load();
        } catch (error) {
          set({ error: messageOf(error) });
        } finally {
          set({ busy: false });
        }
      },
      verifyBundle: async (bundleId, zipPath) => {
        try {
          const result = await callOp('cec.verifyBundle', { zip_path: zipPath });
          set({ bundleChecks: { ...get().bundleChecks, [bundleId]: result } });
        } catch (error) {
          set({ bundleChecks: { ...get().bundleChecks, [bundleId]: messageOf(error) } });
        }
      },
    };
  });

export const useOverview = createOverviewStore(transport);
