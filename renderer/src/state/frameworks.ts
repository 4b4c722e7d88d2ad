import { create } from 'zustand';
import { type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

type FrameworkList = OpOutput<'frameworks.list'>['frameworks'];
type ClauseMap = OpOutput<'frameworks.clauseMap'>;
type ClauseDefinition = OpOutput<'frameworks.clauses'>['clauses'][number];
type EvidencePage = OpOutput<'audit.query'>;

export type ClauseMapQuery = {
  readonly project_id: string;
  readonly framework: string;
  readonly from?: string;
  readonly to?: string;
};

/** The records behind one clause's schema key, fetched on demand for the drill-down. */
export type Drill = { readonly key: string; readonly page: EvidencePage | null; readonly error: string | null };

type FrameworksState = {
  readonly frameworks: FrameworkList;
  readonly projects: readonly string[];
  readonly map: ClauseMap | null;
  /** The query the shown map answers (the drill-down repeats its filters). */
  readonly query: ClauseMapQuery | null;
  /** Mapping rationale and sources of the shown framework's clauses, by clause id. */
  readonly definitions: Readonly<Record<string, ClauseDefinition>>;
  readonly drill: Drill | null;
  readonly loading: boolean;
  readonly error: string | null;
  init(): Promise<void>;
  showMap(query: ClauseMapQuery): Promise<void>;
  drillInto(clauseId: string, schemaKey: ClauseMap['entries'][number]['evidence'][number]['schema_key']): Promise<void>;
  closeDrill(): void;
};

/** How many records the drill-down shows; the Evidence screen pages through the rest. */
export const drillLimit = 10;

/** Built over a given Transport (store tests inject a fake); `useFrameworks` is the app's. */
export const createFrameworksStore = (via: Transport, callOp = opCaller(via)) =>
  create<FrameworksState>((set, get) => ({
    frameworks: [],
    projects: [],
    map: null,
    query: null,
    definitions: {},
    drill: null,
    loading: false,
    error: null,
    init: async () => {
      try {
        const [{ frameworks }, { projects }] = await Promise.all([callOp('frameworks.list', {}), callOp('audit.projects', {})]);
        set({ frameworks, projects: projects.map((project) => project.project_id) });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    showMap: async (query) => {
      set({ loading: true, error: null, drill: null });
      try {
        const [map, clauses] = await Promise.all([
          callOp('frameworks.clauseMap', {
            project_id: query.project_id,
            frameworks: [query.framework],
            ...(query.from ? { from: query.from } : {}),
            ...(query.to ? { to: query.to } : {}),
          }),
          callOp('frameworks.clauses', { framework: query.framework }),
        ]);
        const definitions = Object.fromEntries(clauses.clauses.map((clause) => [clause.clause_id, clause]));
        set({ map, query, definitions });
      } catch (error) {
        set({ error: messageOf(error), map: null });
      } finally {
        set({ loading: false });
      }
    },
    drillInto: async (clauseId, schemaKey) => {
      const query = get().query;
      if (query === null) return;
      const key = `${clauseId}|${schemaKey}`;
      set({ drill: { key, page: null, error: null } });
      try {
        const page = await callOp('audit.query', {
          project_id: query.project_id,
          schema_key: schemaKey,
          limit: drillLimit,
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        });
        if (get().drill?.key === key) set({ drill: { key, page, error: null } });
      } catch (error) {
        if (get().drill?.key === key) set({ drill: { key, page: null, error: messageOf(error) } });
      }
    },
    closeDrill: () => set({ drill: null }),
  }));

export const useFrameworks = createFrameworksStore(transport);
