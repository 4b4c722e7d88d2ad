/**
 * A real RFC 3161 timestamp authority for tests: `openssl ts -reply` behind a loopback HTTP server, with a
 * throw-away CA and a TSA certificate (critical extendedKeyUsage timeStamping). Reused by the bundle tests
 * and e2e. Test support only: never imported by product code.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { missingTools } from '../../test-support/tools.ts';

const run = promisify(execFile);

/**
 * Why the `openssl ts` interop tests cannot run here, or null when they can. openssl is the real TSA in those
 * tests (it ships with every mainstream OS); without it they skip and say so.
 */
export const opensslMissing: string | null = missingTools('RFC 3161 interop tests (openssl ts as the TSA)', ['openssl']);

/** How the server answers: normally, or in one of the broken ways a client must survive. */
export type TestTsaMode = 'normal' | 'http-error' | 'garbage' | 'replay' | 'wrong-type' | 'oversized' | 'hang';

export type TestTsa = {
  readonly url: string;
  readonly caPem: string;
  readonly tsaPem: string;
  /** Directory holding ca.pem and tsa.pem (for `openssl ts -verify -CAfile ... -untrusted ...`). */
  readonly dir: string;
  readonly requests: () => number;
  setMode(mode: TestTsaMode): void;
  close(): Promise<void>;
};

const openssl = (dir: string, args: string[]) => run('openssl', args, { cwd: dir });

const tsaConfig = (dir: string): string => `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
signer_key = $dir/tsa.key
certs = $dir/ca.pem
signer_digest = sha256
default_policy = 1.3.6.1.4.1.55555.1.1
other_policies = 1.3.6.1.4.1.55555.1.2
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

const makePki = async (dir: string): Promise<void> => {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '3650',
    '-subj',
    '/CN=SVC Test Root CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await openssl(dir, ['req', ...ec, '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/O=SVC Tests/CN=SVC Test TSA']);
  writeFileSync(
    join(dir, 'tsa-ext.cnf'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
  );
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '3650',
    '-extfile',
    'tsa-ext.cnf',
  ]);
  writeFileSync(join(dir, 'tsaserial'), '01\n');
  writeFileSync(join(dir, 'tsa.cnf'), tsaConfig(dir));
};

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Starts the TSA on 127.0.0.1 (ephemeral port). Generates its keys with openssl: about a second. */
export const startTestTsa = async (): Promise<TestTsa> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-tsa-'));
  await makePki(dir);
  let mode: TestTsaMode = 'normal';
  let count = 0;
  let lastReply: Buffer | null = null;
  // openssl bumps one serial file: answer one query at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const answer = (query: Buffer): Promise<Buffer> => {
    const job = queue.then(async () => {
      const n = ++count;
      writeFileSync(join(dir, `q${n}.tsq`), query);
      await openssl(dir, [
        'ts',
        '-reply',
        '-config',
        'tsa.cnf',
        '-queryfile',
        `q${n}.tsq`,
        '-inkey',
        'tsa.key',
        '-signer',
        'tsa.pem',
        '-out',
        `r${n}.tsr`,
      ]);
      return readFileSync(join(dir, `r${n}.tsr`));
    });
    queue = job.catch(() => undefined);
    return job;
  };
  const server = createServer((request, response) => {
    void (async () => {
      const query = await readBody(request);
      if (mode === 'hang') return; // never answer: the client's deadline must fire
      if (mode === 'http-error') return void response.writeHead(503).end('TSA unavailable');
      const contentType = mode === 'wrong-type' ? 'text/html' : 'application/timestamp-reply';
      if (mode === 'garbage') return void response.writeHead(200, { 'content-type': contentType }).end('not DER');
      if (mode === 'oversized') {
        return void response.writeHead(200, { 'content-type': contentType }).end(Buffer.alloc(2 * 1024 * 1024));
      }
      const reply = mode === 'replay' && lastReply !== null ? lastReply : await answer(query);
      lastReply = reply;
      response.writeHead(200, { 'content-type': contentType, 'content-length': reply.length }).end(reply);
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    tsaPem: readFileSync(join(dir, 'tsa.pem'), 'utf8'),
    dir,
    requests: () => count,
    setMode: (next) => {
      mode = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
