import { create } from 'zustand';
import type { SchemaKey } from '../../../core/audit/types.ts';
import { newRequestId, type OpOutput, transport, type Transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type EvidencePage = OpOutput<'audit.query'>;
export type ProjectSummary = OpOutput<'audit.projects'>['projects'][number];
export type ChainVerification = OpOutput<'audit.verifyChain'>;
export type ImportResult = OpOutput<'audit.importNdjson'>;

export type EvidenceFilters = {
  readonly projectId: string;
  readonly schemaKey: SchemaKey | '';
  /** Inclusive UTC dates, `YYYY-MM-DD`, or '' for an open end. */
  readonly from: string;
  readonly to: string;
};

export type ImportProgress = { readonly done: number; readonly total: number | null; readonly message: string };

type EvidenceState = {
  readonly projects: ProjectSummary[];
  readonly filters: EvidenceFilters;
  readonly page: number;
  readonly limit: number;
  readonly records: EvidencePage | null;
  readonly loading: boolean;
  readonly chain: ChainVerification | null;
  readonly verifying: boolean;
  readonly importing: boolean;
  readonly progress: ImportProgress | null;
  readonly imported: ImportResult | null;
  readonly importError: string | null;
  readonly error: string | null;
  loadProjects(): Promise<void>;
  setFilters(filters: Partial<EvidenceFilters>): void;
  loadRecords(page?: number): Promise<void>;
  verifyChain(): Promise<void>;
  importFile(file: File, defaultProjectId: string): Promise<void>;
};

const initialFilters: EvidenceFilters = { projectId: '', schemaKey: '', from: '', to: '' };

/** Evidence screen state: import with progress, a filtered page of records, the chain verdict of the project. */
/** Built over a given Transport (store tests inject a fake); `useEvidence` is the app's. */
export const createEvidenceStore = (via: Transport, callOp = opCaller(via)) =>
  create<EvidenceState>((set, get) => ({
    projects: [],
    filters: initialFilters,
    page: 1,
    limit: 25,
    records: null,
    loading: false,
    chain: null,
    verifying: false,
    importing: false,
    progress: null,
    imported: null,
    importError: null,
    error: null,

    loadProjects: async () => {
      try {
        const { projects } = await callOp('audit.projects', {});
        const current = get().filters.projectId;
        set({ projects, error: null });
        if (current === '' && projects[0]) get().setFilters({ projectId: projects[0].project_id });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },

    setFilters: (filters) => set({ filters: { ...get().filters, ...filters }, chain: null }),

    loadRecords: async (page = 1) => {
      const { filters, limit } = get();
      if (filters.projectId === '') {
        set({ error: 'Choose a project first' });
        return;
      }
      set({ loading: true, error: null });
      try {
        const records = await callOp('audit.query', {
          project_id: filters.projectId,
          page,
          limit,
          ...(filters.schemaKey ? { schema_key: filters.schemaKey } : {}),
          ...(filters.from ? { from: filters.from } : {}),
          ...(filters.to ? { to: filters.to } : {}),
        });
        set({ records, page });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ loading: false });
      }
    },

    verifyChain: async () => {
      const projectId = get().filters.projectId;
      if (projectId === '') return;
      set({ verifying: true, error: null });
      try {
        set({ chain: await callOp('audit.verifyChain', { project_id: projectId }) });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ verifying: false });
      }
    },

    importFile: async (file, defaultProjectId) => {
      const requestId = newRequestId();
      set({ importing: true, progress: { done: 0, total: file.size, message: 'reading file' }, imported: null, importError: null });
      const stop = via.subscribe('progress', (event) => {
        if (event.requestId === requestId) set({ progress: { done: event.done, total: event.total, message: event.message } });
      });
      try {
        const text = await file.text();
        const imported = await callOp(
          'audit.importNdjson',
          { text, ...(defaultProjectId ? { project_id: defaultProjectId } : {}) },
          { requestId },
        );
        set({ imported, progress: { done: 1, total: 1, message: 'done' } });
        await get().loadProjects();
        const first = imported.projects[0];
        if (first) {
          get().setFilters({ projectId: first.project_id });
          await get().loadRecords(1);
          await get().verifyChain();
        }
      } catch (error) {
        set({ importError: messageOf(error), progress: null });
      } finally {
        stop();
        set({ importing: false });
      }
    },
  }));

export const useEvidence = createEvidenceStore(transport);
