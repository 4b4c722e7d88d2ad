/** Operations of this domain; filled as the domain lands. */
export const cecOps = {} as const;
