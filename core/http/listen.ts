import type { FastifyInstance } from 'fastify';
import type { App } from '../app.ts';
import { buildServer } from './server.ts';

export type Listener = {
  readonly url: string;
  readonly server: FastifyInstance;
  close(): Promise<void>;
};

const isLoopback = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '::1';

/**
 * Starts the HTTP API on `host:port` (loopback by default; port 0 picks a free one). Binding elsewhere is a team
 * deployment and must be asked for explicitly.
 */
export const startListener = async (
  app: App,
  options: { host?: string; port?: number; rendererDir?: string; extraHosts?: readonly string[]; logRequests?: boolean } = {},
): Promise<Listener> => {
  const host = options.host ?? '127.0.0.1';
  let origin = `http://${host.includes(':') ? `[${host}]` : host}:${options.port ?? 0}`;
  const server = await buildServer({
    app,
    origin: () => origin,
    extraHosts: options.extraHosts ?? [],
    logRequests: options.logRequests ?? true,
    ...(options.rendererDir === undefined ? {} : { rendererDir: options.rendererDir }),
  });
  await server.listen({ host, port: options.port ?? 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const advertised = isLoopback(host) ? (host === '::1' ? '[::1]' : '127.0.0.1') : host.includes(':') ? `[${host}]` : host;
  origin = `http://${advertised}:${port}`;
  return { url: origin, server, close: () => server.close() };
};
