import { AppError } from './errors.ts';
import type { CliCommand } from './cli/command.ts';
import { commands as domainCommands } from './cli/commands.ts';
import { keysCommand } from './cli/keys.ts';
import { serveCommand } from './cli/serve.ts';
import { applyPrivateUmask } from './store/private-files.ts';
import { version } from './version.ts';

const all: readonly CliCommand[] = [serveCommand, keysCommand, ...domainCommands];

const help = (): string =>
  [`svc ${version}: Compliance Workbench`, '', 'Commands:', ...all.map((c) => `  ${c.usage}\n      ${c.summary}`), ''].join('\n');

/** Runs `svc <command> ...` and returns the exit code (0 ok, 1 finding/invalid, 2 usage or error). */
export const main = async (argv: readonly string[]): Promise<number> => {
  applyPrivateUmask();
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const command = all.find((c) => c.name === name);
  if (command === undefined) {
    process.stderr.write(`Unknown command: ${name}\n\n${help()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    const message = error instanceof AppError || error instanceof TypeError ? error.message : String(error);
    process.stderr.write(`svc ${name}: ${message}\n`);
    return 2;
  }
};
