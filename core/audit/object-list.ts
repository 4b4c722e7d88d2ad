/**
 * An empty array that is already of V8's object elements kind. A `[]` literal starts as small integers and changes
 * kind at its first push of an object; code optimised on one such array was deoptimised at the push of the next
 * fresh one ('wrong map', 'not a Smi'), and the ingest path makes a fresh array per append and per page
 * (docs/decisions.md, "Ingest, another pass").
 */
export const objectList = <T extends object>(): T[] => {
  const list: object[] = [placeholder];
  list.length = 0;
  return list as T[];
};

const placeholder = Object.freeze({});
