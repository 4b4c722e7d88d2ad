import { openApp } from '../app.ts';
import { startAnchorScheduler } from '../audit/anchors/scheduler.ts';
import { checkBundleStorage } from '../cec/storage/stored-bundles.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { envSetting } from '../config/env-settings.ts';
import { startListener } from '../http/listen.ts';
import { issueLoginLink } from '../identity/login-links/store.ts';
import { createLogger } from '../log.ts';
import { startPiiWorkers } from '../pii/pool/scanner.ts';
import { parseOptions } from './args.ts';
import { requireSharedKeys } from './shared-keys.ts';
import { defineCommand } from './command.ts';

export const serveCommand = defineCommand('serve', async (argv) => {
  const { values } = parseOptions(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    'data-dir': { type: 'string' },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const log = createLogger({ name: 'svc' });
  const app = await openApp({ dataDir, log });
  try {
    // Several instances share one database, so they must share the keys that sign sessions and bundles.
    if (app.database.dialect === 'postgres') requireSharedKeys(app.env);
    // A misconfigured bucket stops the server here, in one line naming the setting, not at the first build.
    await checkBundleStorage(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  const port = Number(values.port ?? app.settings.get().httpPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid --port ${values.port}\n`);
    return 2;
  }
  const host = values.host ?? envSetting(process.env, 'httpHost');
  const extraHosts = envSetting(process.env, 'allowedHosts')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const listener = await startListener(app, { host, port, extraHosts });
  // After the listener: the workers' engines take a core each for about a second, which must not delay readiness.
  startPiiWorkers(app);
  startAnchorScheduler(app);
  if (!app.settings.secret('signingKey')) {
    log.warn('SVC_SIGNING_KEY is not set: bundle manifests are signed with a per-install key (see README)');
  }
  log.info({ url: listener.url, dataDir }, 'Compliance Workbench listening');
  // The login link is a credential: it goes to stderr (the terminal), never into the JSON log on stdout.
  process.stderr.write(
    `Open this one-time login link (valid 10 minutes):\n  ${listener.url}/login?token=${await issueLoginLink(app.database, app.now())}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await listener.close();
  await app.close();
  return 0;
});
