/** Where a SCIM request points below the base: `/Users` is a collection, `/Users/<id>` one resource. */
export type ScimPath = { readonly resource: string; readonly id: string | undefined };

const base = /^\/scim\/v2(?=\/|$)/i;

/**
 * Reads the resource path of a raw request URL under /scim/v2, ignoring empty segments: a trailing slash
 * (`/Users/?filter=...`, which some clients build by joining a base URL that ends in `/`) and repeated slashes
 * (`//Users`) route like the canonical path instead of reading as "the resource with an empty id". Segments
 * are percent-decoded after splitting, so an encoded `/` inside an id stays part of it. Undefined when the URL
 * names no resource, more than a resource and an id, or does not decode.
 */
export const scimPathOf = (rawUrl: string): ScimPath | undefined => {
  const path = (rawUrl.split('?')[0] ?? '').replace(base, '');
  const raw = path.split('/').filter((segment) => segment !== '');
  if (raw.length === 0 || raw.length > 2) return undefined;
  try {
    const [resource, id] = raw.map(decodeURIComponent) as [string, string | undefined];
    return { resource, id };
  } catch {
    return undefined;
  }
};
