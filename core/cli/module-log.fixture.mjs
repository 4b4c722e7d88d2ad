// Preloaded with `node --import` by core/cli/*.test.ts: appends every module the process loads to the file named
// by TEST_MODULE_LOG, one URL or path a line. ESM resolutions come from a resolve hook (it runs in the loader
// thread, hence the file); CommonJS modules from require.cache at exit.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.TEST_MODULE_LOG;
if (log) {
  const hook = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => appendFileSync(log, `${Object.keys(cache).join('\n')}\n`));
}
