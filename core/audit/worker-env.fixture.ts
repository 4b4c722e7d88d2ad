/**
 * The env of a test helper process's app: only SVC_DATABASE_URL from its own environment (set by the test on
 * PostgreSQL), so nothing else of the test runner's environment changes what the helper does.
 */
export const databaseUrlEnv = (): NodeJS.ProcessEnv => {
  const url = process.env['SVC_DATABASE_URL'];
  return url === undefined ? {} : { SVC_DATABASE_URL: url };
};
