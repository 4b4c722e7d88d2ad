import { create } from 'zustand';
import { newRequestId, type OpOutput, transport, type Transport } from '../transport/index.ts';
import { messageOf, OpFailure, opCaller } from './call.ts';

export type BundleListItem = OpOutput<'cec.listBundles'>['items'][number];
export type BuiltBundle = OpOutput<'cec.buildBundle'>;
export type Verification = OpOutput<'cec.verifyBundle'>;
export type BuildProgress = { readonly done: number; readonly total: number | null; readonly message: string };
export type BuildForm = { readonly projectId: string; readonly from: string; readonly to: string; readonly frameworks: string[] };

type BundlesState = {
  readonly bundles: BundleListItem[];
  readonly total: number;
  readonly building: boolean;
  readonly progress: BuildProgress | null;
  readonly built: BuiltBundle | null;
  readonly error: string | null;
  readonly notice: string | null;
  readonly verifying: boolean;
  readonly verification: Verification | null;
  readonly verifiedName: string | null;
  readonly verifyError: string | null;
  loadBundles(): Promise<void>;
  build(form: BuildForm): Promise<void>;
  reissue(bundleId: string): Promise<void>;
  verifyFile(file: File): Promise<void>;
  /** Verifies a bundle the app downloads first: `s3://bucket/key` or a presigned http(s) URL. */
  verifyUrl(url: string): Promise<void>;
};

const verifyWith = async (set: (partial: Partial<BundlesState>) => void, name: string, run: () => Promise<Verification>) => {
  set({ verifying: true, verification: null, verifyError: null, verifiedName: name });
  try {
    set({ verification: await run() });
  } catch (error) {
    set({ verifyError: messageOf(error) });
  } finally {
    set({ verifying: false });
  }
};

/** Bundles and Verify screens: build with progress, the registry list, reissue, and verification of a ZIP. */
/** Built over a given Transport (store tests inject a fake); `useBundles` is the app's. */
export const createBundlesStore = (via: Transport, callOp = opCaller(via)) =>
  create<BundlesState>((set, get) => ({
    bundles: [],
    total: 0,
    building: false,
    progress: null,
    built: null,
    error: null,
    notice: null,
    verifying: false,
    verification: null,
    verifiedName: null,
    verifyError: null,

    loadBundles: async () => {
      try {
        const page = await callOp('cec.listBundles', { limit: 50 });
        set({ bundles: page.items, total: page.total });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },

    build: async (form) => {
      const requestId = newRequestId();
      set({ building: true, progress: { done: 0, total: null, message: 'starting' }, built: null, error: null, notice: null });
      const stop = via.subscribe('progress', (event) => {
        if (event.requestId === requestId) set({ progress: { done: event.done, total: event.total, message: event.message } });
      });
      try {
        const built = await callOp(
          'cec.buildBundle',
          { project_id: form.projectId, date_range: [form.from, form.to], frameworks: form.frameworks },
          { requestId },
        );
        set({ built, notice: `Built ${built.bundle_id}` });
        await get().loadBundles();
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        stop();
        set({ building: false, progress: null });
      }
    },

    reissue: async (bundleId) => {
      try {
        const result = await callOp('cec.reissueDownloadUrl', { bundle_id: bundleId });
        set({ notice: `Download link of ${bundleId} now expires ${result.expires_at}`, error: null });
        await get().loadBundles();
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },

    verifyFile: (file) =>
      verifyWith(set, file.name, async () => {
        const result = await via.verifyBundleFile(file);
        if (!result.ok) throw new OpFailure(result.error.code, result.error.message);
        return result.value;
      }),
    // The shown name never carries a presigned URL's query: it is a credential.
    verifyUrl: (url) => verifyWith(set, url.split('?')[0] ?? url, () => callOp('cec.verifyUrl', { url })),
  }));

export const useBundles = createBundlesStore(transport);
