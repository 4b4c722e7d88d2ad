import type { App } from '../../app.ts';
import { anchorOnSchedule, unanchoredProjects } from './interval.ts';

const key = 'audit.anchorScheduler';

type Scheduler = { notify(): void; close(): void };

/** Shortest wait before a tick, so a burst of appends is anchored once. */
const batchMs = 1_000;

/**
 * Every interval, a sweep: each project whose head moved past its latest anchor is anchored, unless any
 * instance on the database anchored it less than an interval ago (interval.ts decides, across instances). The
 * sweep reads the heads from the database, so a project written through another instance (or by `svc import`
 * while no scheduler ran) is anchored too.
 */
const createScheduler = (app: App): Scheduler => {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let closed = false;
  const intervalMs = (): number => app.settings.get().anchorIntervalMinutes * 60_000;

  const arm = (delay: number): void => {
    if (closed || timer !== null || running || intervalMs() <= 0) return;
    // unref: a pending anchor never keeps a CLI run or a test process alive.
    timer = setTimeout(() => void tick(), Math.max(Math.min(batchMs, intervalMs()), delay)).unref();
  };

  const tick = async (): Promise<void> => {
    timer = null;
    running = true;
    const interval = intervalMs();
    let next = interval;
    try {
      for (const projectId of await unanchoredProjects(app)) {
        if (closed) return;
        try {
          const outcome = await anchorOnSchedule(app, projectId, interval);
          // Anchored recently by another instance: come back when it is due, not a whole interval later.
          if (outcome.kind === 'recent') next = Math.min(next, outcome.dueAt - app.now().getTime());
        } catch (error) {
          // Retried next interval (still unanchored then); the server keeps running and records keep arriving.
          app.log.warn({ projectId, reason: (error as Error).message }, 'anchoring failed; retrying next interval');
        }
      }
    } catch (error) {
      app.log.warn({ reason: (error as Error).message }, 'anchoring sweep failed; retrying next interval');
    } finally {
      running = false;
      arm(next);
    }
  };

  return {
    notify: () => arm(batchMs),
    close: () => {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
};

/**
 * Starts periodic anchoring for a long-running process (`svc serve`, the desktop app): every project whose
 * chain head moved is anchored at most every `anchorIntervalMinutes` (0 disables) across all instances on the
 * database. Heads that moved while no scheduler ran are anchored on the first tick. Stops with `app.close()`.
 */
export const startAnchorScheduler = (app: App): void => {
  if (app.services.has(key)) return;
  const scheduler = createScheduler(app);
  app.services.set(key, scheduler);
  scheduler.notify();
};

/**
 * Called after records are committed; a no-op unless this process runs the scheduler. The sweep finds the moved
 * heads itself; this only restarts the timer when it stopped (the interval was 0 at the last tick).
 */
export const noteAppended = (app: App, _projectIds: Iterable<string>): void => {
  (app.services.get(key) as Scheduler | undefined)?.notify();
};
