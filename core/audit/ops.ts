/** Operations of this domain; filled as the domain lands. */
export const auditOps = {} as const;
