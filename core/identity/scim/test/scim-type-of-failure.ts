import { scimTypeOf } from '../errors.ts';

/** The scimType a call fails with, or undefined when it succeeds (unit tests of the parser and PATCH). */
export const scimFailure = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return scimTypeOf(error);
  }
  return undefined;
};
