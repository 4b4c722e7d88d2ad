import { z } from 'zod';

/** C0 and C1 control characters, NUL and DEL included: never part of a legitimate path. */
const isControl = (code: number): boolean => code <= 0x1f || (code >= 0x7f && code <= 0x9f);
const hasControlCharacter = (value: string): boolean => {
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i))) return true;
  return false;
};

/**
 * A path-like input field (output_dir, zip_path, ...): a string of at most `max` characters without control
 * characters. A NUL byte used to reach the file system and fail there with a 500; now it is a validation error
 * (422 on the CEC REST routes).
 */
export const pathField = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !hasControlCharacter(value), 'must not contain control characters');
