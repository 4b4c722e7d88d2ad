import { type CommandName, commandInfo } from './command-info.ts';

/** One `svc <name>` sub-command. `run` returns the process exit code; it writes to stdout/stderr itself. */
export type CliCommand = {
  readonly name: CommandName;
  readonly usage: string;
  readonly summary: string;
  readonly run: (argv: readonly string[]) => Promise<number>;
};

/** A sub-command whose usage and summary come from the command table (command-info.ts), declared once there. */
export const defineCommand = (name: CommandName, run: CliCommand['run']): CliCommand => ({ name, ...commandInfo[name], run });
