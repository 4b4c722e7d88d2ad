/** Operations of this domain; filled as the domain lands. */
export const piiOps = {} as const;
