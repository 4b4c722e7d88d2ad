/** Operations of this domain; filled as the domain lands. */
export const ssoOps = {} as const;
