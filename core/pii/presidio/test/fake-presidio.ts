import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers `/analyze`: normally, with a 500, or not at all (to exercise timeouts). */
export type FakePresidioMode = 'ok' | 'error' | 'hang';

export type FakePresidio = {
  readonly url: string;
  /** Bodies of every `/analyze` request, parsed. */
  readonly requests: Record<string, unknown>[];
  mode: FakePresidioMode;
  close(): Promise<void>;
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** Presidio's analyzer contract in miniature: it finds e-mail addresses and the word "Alice" (as PERSON). */
const analyze = (body: Record<string, unknown>): unknown[] => {
  const text = String(body.text);
  const codePoints = [...text];
  const results: unknown[] = [];
  const find = (pattern: RegExp, type: string, score: number, recognizer: string): void => {
    for (const match of codePoints.join('').matchAll(pattern)) {
      const start = [...text.slice(0, match.index)].length;
      results.push({
        entity_type: type,
        start,
        end: start + [...match[0]].length,
        score,
        analysis_explanation: body.return_decision_process
          ? { recognizer, pattern_name: null, original_score: score, score, textual_explanation: `fake ${type}` }
          : null,
      });
    }
  };
  find(/[\w.+-]+@[\w-]+\.[\w.]+/g, 'EMAIL_ADDRESS', 1, 'EmailRecognizer');
  find(/\bAlice\b/g, 'PERSON', 0.85, 'SpacyRecognizer');
  const entities = body.entities as string[] | undefined;
  return results.filter((r) => !entities || entities.includes((r as { entity_type: string }).entity_type));
};

/** A local HTTP server on 127.0.0.1 that speaks Presidio analyzer's REST contract (/analyze, /health, /supportedentities). */
export const startFakePresidio = async (): Promise<FakePresidio> => {
  const requests: Record<string, unknown>[] = [];
  const state: { mode: FakePresidioMode } = { mode: 'ok' };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const json = (status: number, value: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      if (url.pathname === '/health') {
        if (state.mode === 'error') return json(500, { error: 'down' });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('Presidio Analyzer service is up');
        return undefined;
      }
      if (url.pathname === '/supportedentities') return json(200, ['EMAIL_ADDRESS', 'PERSON']);
      if (url.pathname === '/analyze' && request.method === 'POST') {
        const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
        requests.push(body);
        if (state.mode === 'hang') return undefined;
        if (state.mode === 'error') return json(500, { error: 'No matching recognizers were found' });
        if (typeof body.text !== 'string' || typeof body.language !== 'string') return json(500, { error: 'missing' });
        return json(200, analyze(body));
      }
      return json(404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(mode: FakePresidioMode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
