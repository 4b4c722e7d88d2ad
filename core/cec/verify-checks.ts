import { type VerificationCheck, type VerificationCheckName, verificationCheckNames } from './types.ts';

type Status = VerificationCheck['status'];

/** Collects the outcome of each named check: a status, a one-line summary and the errors. */
export class Checks {
  readonly #map = new Map<VerificationCheckName, VerificationCheck>();

  /** Adds an error; the check fails whatever else happened. */
  fail(name: VerificationCheckName, message: string): void {
    const check = this.get(name);
    this.#map.set(name, { ...check, status: 'fail', errors: [...check.errors, message] });
  }

  /** Sets the status and summary, unless the check already failed (then its first error is the summary). */
  note(name: VerificationCheckName, status: Status, summary: string): void {
    const check = this.get(name);
    if (check.status !== 'fail') this.#map.set(name, { ...check, status, summary });
  }

  get(name: VerificationCheckName): VerificationCheck {
    return this.#map.get(name) ?? { name, status: 'pass', summary: '', errors: [] };
  }

  passed(name: VerificationCheckName): boolean {
    return this.get(name).status === 'pass';
  }

  /** Every check in display order; a check nobody set is `skipped` "not reached", a failed one shows its first error. */
  all(): VerificationCheck[] {
    return verificationCheckNames.map((name) => {
      const check = this.#map.get(name);
      if (check === undefined) return { name, status: 'skipped', summary: 'not checked: an earlier check failed', errors: [] };
      if (check.status === 'fail' && check.summary === '') return { ...check, summary: check.errors[0] ?? 'failed' };
      return check;
    });
  }
}
