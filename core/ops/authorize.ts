import { AppError } from '../errors.ts';
import { type Actor, type Tier, tierAtLeast } from './define.ts';

/** Who may call an op or a route: the least tier, or a scope that grants it regardless of tier (e.g. `scim`). */
export type Access = { readonly tier: Tier; readonly scope?: string };

/**
 * The one authorization check, for every transport: anonymous on anything but a public op or route →
 * UNAUTHENTICATED (saying why the presented credential failed, if one was); a tier below the required one and
 * no granting scope → FORBIDDEN.
 */
export const authorizeActor = (access: Access, actor: Actor, failure?: string): void => {
  if (access.tier === 'public') return;
  if (actor.kind === 'anonymous') {
    throw new AppError('UNAUTHENTICATED', failure ?? 'Authentication required', { detail: { invalidToken: failure !== undefined } });
  }
  if (access.scope !== undefined && actor.scopes.includes(access.scope)) return;
  if (!tierAtLeast(actor.tier, access.tier)) {
    const grant = access.scope === undefined ? `the ${access.tier} tier` : `the ${access.tier} tier or the ${access.scope} scope`;
    throw new AppError('FORBIDDEN', `This operation needs ${grant}; the credential has ${actor.tier}`);
  }
};
