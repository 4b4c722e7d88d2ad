import type { z } from 'zod';
import { type AnyOperation, combine } from './define.ts';
import { auditOps } from '../audit/ops.ts';
import { cecOps } from '../cec/ops.ts';
import { clauseOps } from '../cec/clauses/ops.ts';
import { dpaOps } from '../cec/dpa/ops.ts';
import { oscalOps } from '../cec/oscal/ops.ts';
import { chatOps } from '../chat/ops.ts';
import { apiKeyOps } from '../identity/api-keys/ops.ts';
import { desktopLoginOps } from '../identity/oidc/desktop-login.ts';
import { oidcOps } from '../identity/oidc/ops.ts';
import { samlOps } from '../identity/saml/ops.ts';
import { scimOps } from '../identity/scim/ops.ts';
import { sessionOps } from '../identity/sessions/ops.ts';
import { ssoOps } from '../identity/sso/ops.ts';
import { piiOps } from '../pii/ops.ts';
import { postureOps } from '../posture/ops.ts';
import { svcOps } from './svc-ops.ts';

/**
 * THE operations table: every operation the renderer or another tool can call, keyed by name. IPC, the
 * `/api/ops/<name>` routes, the public REST paths, the renderer's Transport types and the OpenAPI document are
 * all derived from it. Each domain owns its slice; names are `<domain>.<verb>`.
 */
export const operations = combine(
  svcOps,
  chatOps,
  apiKeyOps,
  piiOps,
  auditOps,
  cecOps,
  clauseOps,
  dpaOps,
  oscalOps,
  postureOps,
  scimOps,
  ssoOps,
  sessionOps,
  samlOps,
  oidcOps,
  desktopLoginOps,
);

export type Operations = typeof operations;
export type OpName = keyof Operations;
export type OpInput<N extends OpName> = z.input<Operations[N]['input']>;
export type OpOutput<N extends OpName> = Awaited<ReturnType<Operations[N]['handler']>>;

export const isOpName = (name: unknown): name is OpName => typeof name === 'string' && Object.hasOwn(operations, name);

/** Every operation with its name, for the adapters that serve them all (routes, OpenAPI). */
export const operationEntries = (): readonly (readonly [OpName, AnyOperation])[] =>
  (Object.keys(operations) as OpName[]).map((name) => [name, operations[name]] as const);
