import { create } from 'zustand';
import { type OpInput, type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type DpaInput = OpInput<'dpa.generate'>;
export type DpaOptions = OpOutput<'dpa.options'>;
export type DpaDocument = OpOutput<'dpa.generate'>;
export type DpaSummary = OpOutput<'dpa.list'>['documents'][number];
export type DpaFormat = OpInput<'dpa.export'>['format'];
export type DpaFile = OpOutput<'dpa.export'>;

type DpaState = {
  readonly options: DpaOptions | null;
  /** Sanitised HTML of the live preview (rendered and escaped by core). */
  readonly previewHtml: string | null;
  /** Why the current form input cannot be previewed (the server's validation message). */
  readonly previewProblem: string | null;
  readonly documents: readonly DpaSummary[];
  /** The document generated last in this session. */
  readonly current: DpaDocument | null;
  readonly busy: boolean;
  readonly error: string | null;
  readonly status: string | null;
  init(): Promise<void>;
  preview(input: DpaInput): Promise<void>;
  generate(input: DpaInput): Promise<DpaDocument | null>;
  exportFile(id: string, format: DpaFormat): Promise<DpaFile | null>;
  remove(id: string): Promise<void>;
};

let previewSeq = 0;

/** Built over a given Transport (store tests inject a fake); `useDpa` is the app's. */
export const createDpaStore = (via: Transport, callOp = opCaller(via)) =>
  create<DpaState>((set, get) => ({
    options: null,
    previewHtml: null,
    previewProblem: null,
    documents: [],
    current: null,
    busy: false,
    error: null,
    status: null,
    init: async () => {
      try {
        const [options, list] = await Promise.all([callOp('dpa.options', {}), callOp('dpa.list', {})]);
        set({ options, documents: list.documents });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    preview: async (input) => {
      // Only the newest request may update the preview: typing fast must not show an older render last.
      const seq = ++previewSeq;
      try {
        const { html } = await callOp('dpa.preview', input);
        if (seq === previewSeq) set({ previewHtml: html, previewProblem: null });
      } catch (error) {
        if (seq === previewSeq) set({ previewProblem: messageOf(error) });
      }
    },
    generate: async (input) => {
      set({ busy: true, error: null, status: null });
      try {
        const document = await callOp('dpa.generate', input);
        const { documents } = await callOp('dpa.list', {});
        set({ current: document, documents, status: `Generated ${document.document_id}` });
        return document;
      } catch (error) {
        set({ error: messageOf(error) });
        return null;
      } finally {
        set({ busy: false });
      }
    },
    exportFile: async (id, format) => {
      set({ error: null });
      try {
        const file = await callOp('dpa.export', { id, format });
        set({ status: `Exported ${file.filename}` });
        return file;
      } catch (error) {
        set({ error: messageOf(error) });
        return null;
      }
    },
    remove: async (id) => {
      set({ error: null });
      try {
        await callOp('dpa.delete', { id });
        set({
          documents: get().documents.filter((document) => document.document_id !== id),
          current: get().current?.document_id === id ? null : get().current,
          status: `Deleted ${id}`,
        });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
  }));

export const useDpa = createDpaStore(transport);
