import { z } from 'zod';
import { type Anchor, anchorSchema } from '../audit/anchors/statement.ts';
import { AppError } from '../errors.ts';
import { maxBridgeLinks } from './anchors-file.ts';
import type { ChainLink } from './chain-link.ts';
import type { ChainProof } from './chain-proof.ts';
import { type AnchorTrust, checkAnchorToken } from './verify-anchors.ts';
import type { Checks } from './verify-checks.ts';

/**
 * Anchors an auditor kept from an earlier `svc anchors export` (`svc verify --anchors FILE`): independent of
 * the bundle, so a producer who rewrote history after the auditor saved them cannot re-anchor them away.
 */
export type HeldAnchors = { readonly project_id: string; readonly anchors: readonly Anchor[] };

/** Largest export read (about 70 bytes per anchor plus its token; an RFC 3161 token is a few KB). */
export const maxHeldAnchorsBytes = 64 * 1024 * 1024;

const exportDocumentSchema = z.strictObject({
  schema_version: z.literal(1),
  project_id: z.string().min(1).max(128),
  anchors: z.array(anchorSchema).max(maxBridgeLinks),
});

const parseLine = (line: string, where: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    throw new AppError('VALIDATION', `${where} is not valid JSON`);
  }
};

const parseJsonOrUndefined = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const issue = (error: z.ZodError): string => {
  const first = error.issues[0];
  return first === undefined ? 'invalid' : `${first.path.join('.') || '(top level)'}: ${first.message}`;
};

/**
 * Parses `svc anchors export` output, NDJSON (one anchor a line) or the JSON document (`--format json`): one
 * project, at least one anchor, no seq twice. @throws AppError VALIDATION naming the line and the problem.
 */
export const parseHeldAnchors = (text: string, name: string): HeldAnchors => {
  const trimmed = text.trim();
  let held: HeldAnchors;
  const whole = parseJsonOrUndefined(trimmed);
  // `--format json` is one document with an `anchors` array; anything else is read as NDJSON, one anchor a line.
  if (typeof whole === 'object' && whole !== null && 'anchors' in whole) {
    const parsed = exportDocumentSchema.safeParse(whole);
    if (!parsed.success) throw new AppError('VALIDATION', `${name} is not an anchors export: ${issue(parsed.error)}`);
    held = parsed.data;
  } else {
    const lines = trimmed === '' ? [] : trimmed.split('\n');
    if (lines.length > maxBridgeLinks) throw new AppError('VALIDATION', `${name} holds more than ${maxBridgeLinks} anchors`);
    const anchors = lines.map((line, i) => {
      const parsed = anchorSchema.safeParse(parseLine(line, `${name} line ${i + 1}`));
      if (!parsed.success) throw new AppError('VALIDATION', `${name} line ${i + 1} is not an anchor: ${issue(parsed.error)}`);
      return parsed.data;
    });
    held = { project_id: anchors[0]?.project_id ?? '', anchors };
  }
  if (held.anchors.length === 0) throw new AppError('VALIDATION', `${name} holds no anchors`);
  const seqs = new Set<number>();
  for (const anchor of held.anchors) {
    if (anchor.project_id !== held.project_id)
      throw new AppError('VALIDATION', `${name} mixes projects (${held.project_id}, ${anchor.project_id}): export one project`);
    if (seqs.has(anchor.seq)) throw new AppError('VALIDATION', `${name} holds two anchors at seq ${anchor.seq}`);
    seqs.add(anchor.seq);
  }
  return held;
};

/**
 * Checks the held anchors against the chain as the verifier re-derives it: an anchor at a seq inside the
 * bundle's segment must state the hash re-derived there, one at first_seq - 1 the hash the segment starts
 * from, one on the bundle's verified bridge that bridge link's hash. Anchors further out say nothing about
 * this bundle and are counted, not failed. Each token is verified as a bundle anchor's is.
 */
export class HeldAnchorCheck {
  readonly #bySeq = new Map<number, Anchor>();
  readonly #errors: string[] = [];
  #compared = 0;

  private constructor(anchors: readonly Anchor[]) {
    for (const anchor of anchors) this.#bySeq.set(anchor.seq, anchor);
  }

  /** @throws AppError VALIDATION when the anchors are another project's: nothing could be compared. */
  static async prepare(held: HeldAnchors, projectId: string, trust: AnchorTrust): Promise<HeldAnchorCheck> {
    if (held.project_id !== projectId)
      throw new AppError(
        'VALIDATION',
        `--anchors holds anchors of project ${JSON.stringify(held.project_id)}, but the bundle is of project ${JSON.stringify(projectId)}: refused, give that project's anchors export`,
      );
    const check = new HeldAnchorCheck(held.anchors);
    for (const anchor of held.anchors) {
      const { errors } = await checkAnchorToken(anchor, trust);
      for (const error of errors) check.#fail(`held anchor at seq ${anchor.seq}: ${error}`);
    }
    return check;
  }

  #fail(message: string): void {
    if (this.#errors.length < 20) this.#errors.push(`held anchors: ${message}`);
  }

  #compare(seq: number, hash: string, where: string): void {
    const anchor = this.#bySeq.get(seq);
    if (anchor === undefined) return;
    this.#compared += 1;
    if (anchor.head_hash !== hash)
      this.#fail(
        `the anchor you hold at seq ${seq} states head ${anchor.head_hash}, but ${where} has ${hash}: history differs from what was anchored`,
      );
  }

  /** One link of the segment as the chain verifier accepted it. */
  onLink(seq: number, hash: string): void {
    this.#compare(seq, hash, "the bundle's re-derived chain");
  }

  /** The segment's edge and the bundle's verified bridge; then the errors and a one-line summary. */
  finish(segment: ChainProof['segment'], bridge: readonly ChainLink[]): { errors: string[]; summary: string; compared: number } {
    if (segment !== null) {
      this.#compare(segment.first_seq - 1, segment.anchor_prev_hash, "the hash the bundle's segment starts from");
      for (const link of bridge) this.#compare(link.seq, link.hash, "the bundle's bridge");
    }
    const total = this.#bySeq.size;
    const range =
      segment === null ? 'the bundle holds no chain segment' : `the bundle covers seq ${segment.first_seq}..${segment.last_seq}`;
    const summary =
      this.#compared === 0
        ? `none of the ${total} held anchor(s) falls within the bundle's chain (${range}): nothing to compare`
        : `${this.#compared} of ${total} held anchor(s) match the re-derived chain (${range})`;
    return { errors: this.#errors, summary, compared: this.#compared };
  }
}

/** Ends the held-anchor comparison: its errors fail the `anchors` check; its summary joins the bundle anchors' one. */
export const finishHeldAnchorCheck = (
  checks: Checks,
  held: HeldAnchorCheck | null,
  segment: ChainProof['segment'],
  bridge: readonly ChainLink[],
): void => {
  if (held === null) return;
  const { errors, summary, compared } = held.finish(segment, bridge);
  for (const error of errors) checks.fail('anchors', error);
  const current = checks.get('anchors');
  checks.note('anchors', compared > 0 ? 'pass' : current.status, current.summary === '' ? summary : `${current.summary}; ${summary}`);
};
