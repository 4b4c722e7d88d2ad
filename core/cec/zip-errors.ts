/** A hostile, ambiguous or broken archive; the verifier reports it as a failed `archive` check (exit 1). */
export class ArchiveError extends Error {}

/** A file that is not a ZIP archive at all (no end record); the verifier raises SFCECVerifyError (exit 2). */
export class UnreadableArchiveError extends Error {}
