import { monotonicFactory } from 'ulid';
import { type App, service } from '../../app.ts';

/**
 * `<prefix><ulid>` ids. A monotonic factory per app keeps ids strictly increasing even within one millisecond,
 * so ordering by id is creation order (SCIM paging is stable) and one random draw serves many ids.
 */
export const newId = (app: App, prefix: 'scim-user-' | 'scim-group-' | 'sso-'): string =>
  `${prefix}${service(app, 'identity.ulid', () => monotonicFactory())(app.now().getTime())}`;
