/** Deepest JSON nesting accepted anywhere evidence enters or is verified (objects and arrays count one each). */
export const maxJsonDepth = 64;

/**
 * True when `value` nests objects/arrays deeper than `max` (the top-level container is depth 1). Iterative with
 * an explicit stack, so a hostile document thousands of levels deep cannot overflow the call stack here.
 */
export const nestedDeeperThan = (value: unknown, max: number = maxJsonDepth): boolean => {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
};
