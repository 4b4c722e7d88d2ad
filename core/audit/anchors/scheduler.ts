import type { App } from '../../app.ts';
import { anchorHead } from './store.ts';

const key = 'audit.anchorScheduler';

type Scheduler = { notify(projectIds: Iterable<string>): void; close(): void };

/** Shortest wait before a tick, so a burst of appends is anchored once. */
const batchMs = 1_000;

const createScheduler = (app: App): Scheduler => {
  const dirty = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let closed = false;
  let lastRun = Number.NEGATIVE_INFINITY;
  const intervalMs = (): number => app.settings.get().anchorIntervalMinutes * 60_000;

  const arm = (): void => {
    const interval = intervalMs();
    if (closed || timer !== null || running || dirty.size === 0 || interval <= 0) return;
    const delay = Math.max(Math.min(batchMs, interval), lastRun + interval - Date.now());
    // unref: a pending anchor never keeps a CLI run or a test process alive.
    timer = setTimeout(() => void tick(), delay).unref();
  };

  const tick = async (): Promise<void> => {
    timer = null;
    running = true;
    lastRun = Date.now();
    const projects = [...dirty];
    dirty.clear();
    try {
      for (const projectId of projects) {
        if (closed) return;
        try {
          await anchorHead(app, projectId);
        } catch (error) {
          // Retried next interval; the server keeps running and records keep arriving.
          if (!closed) dirty.add(projectId);
          app.log.warn({ projectId, reason: (error as Error).message }, 'anchoring failed; retrying next interval');
        }
      }
    } finally {
      running = false;
      arm();
    }
  };

  return {
    notify: (projectIds) => {
      if (closed) return;
      for (const id of projectIds) dirty.add(id);
      arm();
    },
    close: () => {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
};

/**
 * Starts periodic anchoring for a long-running process (`svc serve`, the desktop app): every project whose
 * chain head moved is anchored at most every `anchorIntervalMinutes` (0 disables). Heads that moved while no
 * scheduler ran (e.g. `svc import`) are anchored on the first tick. Stops with `app.close()`.
 */
export const startAnchorScheduler = (app: App): void => {
  if (app.services.has(key)) return;
  const scheduler = createScheduler(app);
  app.services.set(key, scheduler);
  const stale = app.db
    .prepare<[], { project_id: string }>(
      `SELECT h.project_id FROM audit_chain_heads h
       WHERE h.head_seq > COALESCE((SELECT max(a.seq) FROM audit_anchors a WHERE a.project_id = h.project_id), 0)`,
    )
    .all();
  scheduler.notify(stale.map((row) => row.project_id));
};

/** Called after records are committed; a no-op unless this process runs the scheduler. */
export const noteAppended = (app: App, projectIds: Iterable<string>): void => {
  (app.services.get(key) as Scheduler | undefined)?.notify(projectIds);
};
