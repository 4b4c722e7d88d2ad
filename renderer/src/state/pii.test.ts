import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createPiiStore } from './pii.ts';

describe('PII store (through an injected Transport)', () => {
  it('keeps the result with the exact text it was computed on', async () => {
    const store = createPiiStore(fakeTransport({ ops: { 'pii.scan': () => ok({ entities: [] }) } }));
    await store.getState().scan({ text: 'Ring 020 7946 0958' } as never);
    expect(store.getState()).toMatchObject({ result: { text: 'Ring 020 7946 0958', value: { entities: [] } }, scanning: false });
  });

  it('tells a block by policy (PII_DETECTED) from any other failure', async () => {
    const blocked = createPiiStore(fakeTransport({ ops: { 'pii.scan': () => fail('UNPROCESSABLE', 'PII_DETECTED') } }));
    await blocked.getState().scan({ text: 'x' } as never);
    expect(blocked.getState()).toMatchObject({ blocked: true, result: null, error: expect.stringMatching(/^Blocked \(PII_DETECTED\)/) });
    const broken = createPiiStore(fakeTransport({ ops: { 'pii.scan': () => fail('UNAVAILABLE', 'engine down') } }));
    await broken.getState().scan({ text: 'x' } as never);
    expect(broken.getState()).toMatchObject({ blocked: false, error: 'engine down' });
  });
});
