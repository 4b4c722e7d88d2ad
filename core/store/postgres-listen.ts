import { Socket } from 'node:net';
import pg from 'pg';
import type { Listening } from './database.ts';

/** PostgreSQL identifiers we LISTEN on are our own constants; anything else is a programming error, not input. */
const channelName = /^[a-z_][a-z0-9_]*$/;
const firstRetryMs = 250;
const lastRetryMs = 10_000;

export type ListenOptions = {
  /** Told when the connection is lost and when it comes back (never with the URL: the pool config holds it). */
  readonly onConnectionChange?: (state: 'lost' | 'restored', error?: Error) => void;
};

/**
 * `LISTEN channel` on a connection of its own (a pooled one would be handed to a query and stop listening),
 * opened from the pool's configuration. When the connection drops (server restart, failover, a terminated
 * backend), it reconnects with a growing pause and then calls `onNotify` once: a notification sent while it was
 * away is lost, so the listener must assume it missed one.
 */
export const listenPostgres = async (
  config: pg.ClientConfig,
  channel: string,
  onNotify: () => void,
  options: ListenOptions = {},
): Promise<Listening> => {
  if (!channelName.test(channel)) throw new TypeError(`Not a channel name: ${channel}`);
  let client: { readonly pg: pg.Client; readonly socket: Socket } | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let pauseMs = firstRetryMs;

  const connect = async (): Promise<void> => {
    const socket = new Socket();
    const next = new pg.Client({ ...config, stream: () => socket });
    // Errors after connecting arrive here (and as 'end'); without a listener they would crash the process.
    next.on('error', () => undefined);
    next.on('end', () => {
      if (closed || client?.pg !== next) return;
      client = undefined;
      options.onConnectionChange?.('lost');
      schedule();
    });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    // Unreferenced once listening: this connection alone must not keep a process alive that has nothing else to
    // do (a start-up that failed after openApp, a CLI command that returned without closing its app).
    socket.unref();
    client = { pg: next, socket };
  };

  const schedule = (): void => {
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          pauseMs = firstRetryMs;
          if (closed) return;
          options.onConnectionChange?.('restored');
          onNotify();
        },
        (error: Error) => {
          pauseMs = Math.min(pauseMs * 2, lastRetryMs);
          options.onConnectionChange?.('lost', error);
          if (!closed) schedule();
        },
      );
    }, pauseMs);
    // A server waiting to reconnect its listener must still be able to exit.
    retry.unref();
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      const current = client;
      client = undefined;
      // Referenced again while it ends: an unreferenced socket would let the process exit with this promise
      // unsettled (exit code 13 when a script awaits app.close() as its last step).
      current?.socket.ref();
      await current?.pg.end().catch(() => undefined);
    },
  };
};
