import { create } from 'zustand';
import { type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type ChainAnchor = OpOutput<'audit.anchors'>['anchors'][number];

type AnchorsState = {
  readonly projectId: string | null;
  readonly anchors: ChainAnchor[];
  readonly anchoring: boolean;
  readonly notice: string | null;
  readonly error: string | null;
  load(projectId: string): Promise<void>;
  anchorNow(projectId: string): Promise<void>;
};

/**
 * The Evidence screen's anchors panel: a project's chain anchors and the "Anchor now" action.
 * Built over a given Transport (store tests inject a fake); `useAnchors` is the app's.
 */
export const createAnchorsStore = (via: Transport, callOp = opCaller(via)) =>
  create<AnchorsState>((set, get) => ({
    projectId: null,
    anchors: [],
    anchoring: false,
    notice: null,
    error: null,

    load: async (projectId) => {
      set({ projectId, notice: null, error: null });
      try {
        const { anchors } = await callOp('audit.anchors', { project_id: projectId, limit: 1000 });
        if (get().projectId === projectId) set({ anchors });
      } catch (error) {
        set({ anchors: [], error: messageOf(error) });
      }
    },

    anchorNow: async (projectId) => {
      set({ anchoring: true, notice: null, error: null });
      try {
        const outcome = await callOp('audit.anchor', { project_id: projectId });
        const notice =
          outcome.anchor === null
            ? `${projectId} has no records to anchor`
            : outcome.created
              ? `Anchored ${projectId} at seq ${outcome.anchor.seq}`
              : `Head of ${projectId} has not moved since the anchor at seq ${outcome.anchor.seq}`;
        await get().load(projectId);
        set({ notice });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ anchoring: false });
      }
    },
  }));

export const useAnchors = createAnchorsStore(transport);
