import type { CliCommand } from './command.ts';
import type { CommandName } from './command-info.ts';

/**
 * How each sub-command is loaded: a dynamic import of the one module that runs it, so `svc --help` and `svc verify`
 * never load the PII engine, pdfkit, Fastify or the identity providers (the prebuilt CLI keeps each as its own
 * chunk). The Record type makes a command without a loader (or a loader without help text) a type error.
 */
export const commandLoaders: Readonly<Record<CommandName, () => Promise<CliCommand>>> = {
  serve: async () => (await import('./serve.ts')).serveCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  import: async () => (await import('../audit/cli.ts')).importCommand,
  scan: async () => (await import('../pii/cli.ts')).scanCommand,
  dpa: async () => (await import('../cec/dpa/cli.ts')).dpaCommand,
  verify: async () => (await import('../cec/verify-cli.ts')).verifyCommand,
  build: async () => (await import('../cec/cli.ts')).buildCommand,
  'public-key': async () => (await import('../cec/cli.ts')).publicKeyCommand,
  oscal: async () => (await import('../cec/oscal/cli.ts')).oscalCommand,
  anchor: async () => (await import('../audit/anchors/cli.ts')).anchorCommand,
  anchors: async () => (await import('../audit/anchors/cli.ts')).anchorsCommand,
};
