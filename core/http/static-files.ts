import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from '../package-root.ts';

/** Where `npm run build:renderer` writes the web workbench. */
export const defaultRendererDir = join(packageRoot, 'renderer', 'dist');

const apiPrefixes = ['/api/', '/v1/', '/scim/', '/saml/', '/oidc/', '/auth/'];

/** Serves the built renderer at `/`, with index.html for client-side routes. */
export const registerStaticFiles = async (fastify: FastifyInstance, rendererDir: string): Promise<void> => {
  const built = existsSync(`${rendererDir}/index.html`);
  // Imported only when there is something to serve (its file server and glob cost start-up time).
  if (built) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await fastify.register(fastifyStatic, { root: rendererDir, index: ['index.html'], wildcard: false, maxAge: 0 });
  }
  fastify.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !apiPrefixes.some((prefix) => request.url.startsWith(prefix));
    if (isPage && built) return reply.type('text/html; charset=utf-8').sendFile('index.html');
    if (isPage) return reply.code(404).type('text/plain').send('The web workbench is not built: run `npm run build:renderer`.');
    return reply.code(404).send({ error: 'Not found' });
  });
};
