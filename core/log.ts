import { pino, type Logger } from 'pino';
import { envSetting } from './config/env-settings.ts';

export type { Logger };

/**
 * Paths that must never reach a log line. Inputs are PII by definition, so ops log names, ids, durations and
 * outcome codes only; this list is the second line of defence.
 */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.api_key',
  '*.secret',
  '*.password',
  '*.token',
  '*.org_secret',
  '*.signingKey',
  '*.clientSecret',
  'input',
];

export const createLogger = (options: { level?: string; name?: string } = {}): Logger =>
  pino({
    name: options.name ?? 'svc',
    level: options.level ?? envSetting(process.env, 'logLevel'),
    redact: { paths: redactPaths, censor: '[redacted]' },
  });

/** A logger that drops everything, for tests and library use without a host. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
