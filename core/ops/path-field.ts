import { z } from 'zod';

/** C0 and C1 control characters, NUL and DEL included: never part of a legitimate path. */
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A path-like input field (output_dir, zip_path, ...): a string of at most `max` characters without control
 * characters. A NUL byte used to reach the file system and fail there with a 500; now it is a validation error
 * (422 on the CEC REST routes).
 */
export const pathField = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !controlCharacter.test(value), 'must not contain control characters');
