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

const levelNames: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One JSON log line as `12:00:01 INFO  message key=value …` (and the stack, if any) for a person at a terminal. */
export const prettyLine = (line: string): string => {
  const { time, level, msg, pid: _pid, hostname: _host, name: _name, err, ...rest } = JSON.parse(line) as Record<string, unknown>;
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const stack = (err as { stack?: string } | undefined)?.stack;
  return (
    `${clock} ${(levelNames[level as number] ?? String(level)).padEnd(5)} ${String(msg ?? '')} ${fields.join(' ')}`.trimEnd() +
    (stack === undefined ? '' : `\n${stack}`) +
    '\n'
  );
};

/**
 * JSON lines for machines; when stdout is a terminal (SVC_LOG_FORMAT `auto`), readable lines instead.
 * Redaction applies to both.
 */
export const createLogger = (options: { level?: string; name?: string; pretty?: boolean } = {}): Logger => {
  const format = envSetting(process.env, 'logFormat');
  const pretty = options.pretty ?? (format === 'auto' ? process.stdout.isTTY === true : format === 'pretty');
  const settings = {
    name: options.name ?? 'svc',
    level: options.level ?? envSetting(process.env, 'logLevel'),
    redact: { paths: redactPaths, censor: '[redacted]' },
  };
  return pretty ? pino(settings, { write: (line: string) => void process.stdout.write(prettyLine(line)) }) : pino(settings);
};

/** A logger that drops everything, for tests and library use without a host. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
