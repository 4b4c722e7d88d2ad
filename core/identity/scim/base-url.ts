import type { App } from '../../app.ts';

/**
 * The SCIM base URL in `meta.location` and `$ref`: SVC_SCIM_BASE_URL / settings.scimBaseUrl when set (the URL
 * the IdP was given, e.g. behind a reverse proxy), else the origin the request came to plus `/scim/v2`.
 */
export const scimBaseUrl = (app: App, requestOrigin?: string): string => {
  const configured = app.settings.get().scimBaseUrl;
  if (configured !== '') return configured.replace(/\/+$/, '');
  return `${(requestOrigin ?? 'http://127.0.0.1').replace(/\/+$/, '')}/scim/v2`;
};
