import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createDpaStore, type DpaInput } from './dpa.ts';

const input = { project_id: 'p', law_of_contract: 'DE' } as DpaInput;
const summary = (id: string) => ({
  document_id: id,
  project_id: 'p',
  generated_at: '2026-01-01T00:00:00Z',
  controller_name: 'A',
  processor_name: 'B',
});

describe('DPA store (through an injected Transport)', () => {
  it('loads the options and the stored list; generating stores the document, refreshes the list and says so', async () => {
    const stored = [summary('dpa-1')];
    const via = fakeTransport({
      ops: {
        'dpa.options': () => ok({ transfer_mechanisms: [{ id: 'bcr', display_name: 'BCR' }] }),
        'dpa.list': () => ok({ documents: [...stored] }),
        'dpa.generate': () => {
          stored.unshift(summary('dpa-2'));
          return ok({ document_id: 'dpa-2' });
        },
      },
    });
    const store = createDpaStore(via);
    await store.getState().init();
    expect(store.getState().options?.transfer_mechanisms).toHaveLength(1);
    expect(store.getState().documents.map((d) => d.document_id)).toEqual(['dpa-1']);
    const document = await store.getState().generate(input);
    expect(document?.document_id).toBe('dpa-2');
    expect(store.getState()).toMatchObject({ busy: false, error: null, status: 'Generated dpa-2', current: { document_id: 'dpa-2' } });
    expect(store.getState().documents.map((d) => d.document_id)).toEqual(['dpa-2', 'dpa-1']);
    expect(via.calls.find((call) => call.name === 'dpa.generate')?.input).toEqual(input);
  });

  it("shows the server's refusal, keeps what it had and is not left busy", async () => {
    const store = createDpaStore(
      fakeTransport({ ops: { 'dpa.generate': () => fail('VALIDATION', 'law_of_contract: must not be empty') } }),
    );
    expect(await store.getState().generate(input)).toBeNull();
    expect(store.getState()).toMatchObject({ busy: false, current: null, error: 'law_of_contract: must not be empty' });
  });

  it('shows only the newest preview when an older answer arrives last', async () => {
    const answers: ((html: string) => void)[] = [];
    const store = createDpaStore(
      fakeTransport({ ops: { 'dpa.preview': () => new Promise((resolve) => answers.push((html) => resolve(ok({ html })))) } }),
    );
    const first = store.getState().preview(input);
    const second = store.getState().preview(input);
    answers[1]?.('<p>new</p>');
    await second;
    answers[0]?.('<p>old</p>');
    await first;
    expect(store.getState().previewHtml).toBe('<p>new</p>');
  });

  it('deleting the current document removes it from the list and from the screen', async () => {
    const via = fakeTransport({
      ops: {
        'dpa.list': () => ok({ documents: [summary('dpa-1')] }),
        'dpa.options': () => ok({ transfer_mechanisms: [] }),
        'dpa.generate': () => ok({ document_id: 'dpa-1' }),
        'dpa.delete': () => ok({ deleted: true }),
      },
    });
    const store = createDpaStore(via);
    await store.getState().generate(input);
    await store.getState().remove('dpa-1');
    expect(store.getState()).toMatchObject({ documents: [], current: null, status: 'Deleted dpa-1' });
    expect(via.calls.at(-1)).toEqual({ name: 'dpa.delete', input: { id: 'dpa-1' } });
  });
});
