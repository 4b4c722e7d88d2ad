/** Operations of this domain; filled as the domain lands. */
export const scimOps = {} as const;
