import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createBundlesStore } from './bundles.ts';

const form = { projectId: 'p', from: '2026-01-01', to: '2026-01-31', frameworks: ['eu_ai_act'] };

describe('bundles store (through an injected Transport)', () => {
  it('builds with the progress of its own request only, then reloads the list', async () => {
    const seen: (string | undefined)[] = [];
    const via = fakeTransport({
      ops: {
        'cec.buildBundle': () => {
          via.emit('progress', { requestId: 'someone-else', op: 'cec.buildBundle', done: 1, total: 2, message: 'theirs' });
          seen.push(store.getState().progress?.message);
          return ok({ bundle_id: 'b1' });
        },
        'cec.listBundles': () => ok({ items: [{ bundle_id: 'b1' }], total: 1 }),
      },
    });
    const store = createBundlesStore(via);
    await store.getState().build(form);
    expect(seen).toEqual(['starting']);
    expect(via.calls[0]).toEqual({
      name: 'cec.buildBundle',
      input: { project_id: 'p', date_range: ['2026-01-01', '2026-01-31'], frameworks: ['eu_ai_act'] },
    });
    expect(store.getState()).toMatchObject({ building: false, progress: null, notice: 'Built b1', total: 1, error: null });
  });

  it('shows a failed build and leaves no progress behind', async () => {
    const via = fakeTransport({ ops: { 'cec.buildBundle': () => fail('UNAVAILABLE', 'TSA unreachable') } });
    const store = createBundlesStore(via);
    await store.getState().build(form);
    expect(store.getState()).toMatchObject({ building: false, progress: null, error: 'TSA unreachable', built: null });
  });

  it('verifies a picked file through the Transport and reports a refused upload with its reason', async () => {
    let answer = ok({ valid: true });
    const via = fakeTransport({ ops: { 'cec.verifyUpload': () => answer } });
    const store = createBundlesStore(via);
    const file = new File(['PK'], 'bundle.zip');
    await store.getState().verifyFile(file);
    expect(store.getState()).toMatchObject({
      verifying: false,
      verifiedName: 'bundle.zip',
      verification: { valid: true },
      verifyError: null,
    });
    expect(via.calls).toEqual([{ name: 'cec.verifyUpload', input: { file } }]);
    answer = fail('PAYLOAD_TOO_LARGE', 'request_too_large');
    await store.getState().verifyFile(file);
    expect(store.getState()).toMatchObject({ verifying: false, verification: null, verifyError: 'request_too_large' });
  });

  it('never shows the query of a presigned URL (it is a credential)', async () => {
    const via = fakeTransport({ ops: { 'cec.verifyUrl': () => ok({ valid: false }) } });
    const store = createBundlesStore(via);
    await store.getState().verifyUrl('https://s3.example/b.zip?X-Amz-Signature=secret');
    expect(store.getState().verifiedName).toBe('https://s3.example/b.zip');
    expect(via.calls).toEqual([{ name: 'cec.verifyUrl', input: { url: 'https://s3.example/b.zip?X-Amz-Signature=secret' } }]);
  });
});
