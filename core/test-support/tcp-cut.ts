import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A loopback TCP relay in front of a real server, to play a network outage in tests: `hold()` stops forwarding
 * (statements reach the relay and wait, as on a hung link), `cut()` resets every connection and refuses new
 * ones (as when the database host goes away), `restore()` accepts again. Real sockets on both sides: the driver
 * sees exactly what it would see in production (ECONNRESET, ECONNREFUSED).
 */
export type TcpCut = {
  /** `url` with its host and port pointed at the relay. */
  readonly url: string;
  /** Bytes clients sent while held (a test polls this to know a statement is in flight). */
  readonly heldBytes: number;
  hold(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

export const tcpCut = async (target: string): Promise<TcpCut> => {
  const to = new URL(target);
  const pairs = new Set<[Socket, Socket]>();
  let mode: 'open' | 'held' | 'down' = 'open';
  let heldBytes = 0;
  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(to.port), to.hostname);
    upstream.on('error', () => undefined);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (mode === 'held') heldBytes += chunk.length;
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (mode !== 'held') client.write(chunk);
    });
    for (const socket of pair) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tcpCut: no port');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    get heldBytes() {
      return heldBytes;
    },
    hold: () => {
      mode = 'held';
      heldBytes = 0;
    },
    cut: () => {
      mode = 'down';
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore: () => {
      mode = 'open';
    },
    close: async () => {
      mode = 'down';
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
