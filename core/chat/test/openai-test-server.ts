import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next request(s) get. Each queued behaviour is used once; then the default answers. */
export type Behaviour =
  | { readonly kind: 'ok'; readonly text?: string; readonly promptTokens?: number; readonly completionTokens?: number }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'malformed' };

export type RecordedRequest = {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
};

export type OpenAiTestServer = {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queue behaviours for the next requests, e.g. `failTimes(2, 503)`. */
  enqueue(...behaviours: Behaviour[]): void;
  failTimes(count: number, status: number): void;
  close(): Promise<void>;
};

/**
 * A local OpenAI-compatible chat provider for tests and the e2e run: answers `POST /chat/completions` (under any
 * prefix, e.g. `/v1`) by echoing the last user message, and can fail N times with a status, hang past a client's
 * timeout, reset the connection, or return malformed JSON.
 */
export const startOpenAiTestServer = async (): Promise<OpenAiTestServer> => {
  const queue: Behaviour[] = [];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      if (request.method !== 'POST' || !(request.url ?? '').endsWith('/chat/completions')) {
        response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const behaviour = queue.shift() ?? { kind: 'ok' };
      switch (behaviour.kind) {
        case 'hang':
          hanging.add(response);
          return;
        case 'reset':
          request.socket.destroy();
          return;
        case 'malformed':
          response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"choices": [ {"message": ');
          return;
        case 'status':
          response
            .writeHead(behaviour.status, { 'Content-Type': 'application/json' })
            .end(behaviour.body ?? JSON.stringify({ error: { message: `status ${behaviour.status}` } }));
          return;
        case 'ok': {
          const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: string }[]) : [];
          const lastUser = [...messages].reverse().find((message) => message.role === 'user');
          const text = behaviour.text ?? `echo: ${lastUser?.content ?? ''}`;
          response.writeHead(200, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-test',
              object: 'chat.completion',
              model: body.model,
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: {
                prompt_tokens: behaviour.promptTokens ?? 7,
                completion_tokens: behaviour.completionTokens ?? 5,
                total_tokens: (behaviour.promptTokens ?? 7) + (behaviour.completionTokens ?? 5),
              },
            }),
          );
          return;
        }
        default:
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...behaviours) => void queue.push(...behaviours),
    failTimes: (count, status) => {
      for (let i = 0; i < count; i++) queue.push({ kind: 'status', status });
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
