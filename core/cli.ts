import { commandInfo, isCommandName } from './cli/command-info.ts';
import { commandLoaders } from './cli/commands.ts';
import { AppError } from './errors.ts';
import { applyPrivateUmask } from './store/private-files.ts';
import { version } from './version.ts';

const help = (): string =>
  [
    `svc ${version}: Compliance Workbench`,
    '',
    'Commands:',
    ...Object.values(commandInfo).map((c) => `  ${c.usage}\n      ${c.summary}`),
    '',
  ].join('\n');

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
  if (!isCommandName(name)) {
    process.stderr.write(`Unknown command: ${name}\n\n${help()}`);
    return 2;
  }
  // `svc verify --help`: the command's own usage, without loading it.
  if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
    process.stdout.write(`Usage: ${commandInfo[name].usage}\n  ${commandInfo[name].summary}\n`);
    return 0;
  }
  try {
    const command = await commandLoaders[name]();
    return await command.run(rest);
  } catch (error) {
    const message = error instanceof AppError || error instanceof TypeError ? error.message : String(error);
    process.stderr.write(`svc ${name}: ${message}\n`);
    return 2;
  }
};
