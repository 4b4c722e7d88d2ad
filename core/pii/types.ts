/**
 * The PII engine's contract, after Presidio's analyzer model (../shared/reference/presidio.md).
 *
 * Offsets: a Finding in a ScanResult indexes the text as an array of Unicode code points (like Presidio),
 * so `[...text].slice(start, end).join('')` is the entity text. Recognizers work on JS strings and return
 * UTF-16 code-unit offsets (plain `String.prototype.slice` indices); the engine converts once at the end.
 */

import type { CountryCode } from 'libphonenumber-js';

/** Why a finding has the score it has (returned when the caller asks for explanations). */
export type Explanation = {
  readonly recognizer: string;
  readonly pattern?: string;
  readonly originalScore: number;
  readonly score: number;
  /** Checksum outcome: true = validated (score 1.0), false = failed (dropped), null = no checksum / kept. */
  readonly validationResult?: boolean | null;
  readonly contextWord?: string;
  readonly textualExplanation?: string;
};

export type Finding = {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly score: number;
  readonly explanation?: Explanation;
};

/** What every recognizer sees. */
export type AnalysisInput = {
  readonly text: string;
  readonly language: string;
  /** Regions PHONE_NUMBER checks national numbers against (validated ISO 3166 codes; absent: its defaults). */
  readonly phoneRegions?: readonly CountryCode[];
};

export type Recognizer = {
  readonly name: string;
  readonly supportedEntities: readonly string[];
  readonly supportedLanguages: readonly string[];
  /** Context words that lift a nearby finding (Presidio's LemmaContextAwareEnhancer). */
  readonly context: readonly string[];
  /**
   * Presidio's `enabled` flag: when false the recognizer only runs if the request names one of its
   * entities in `entities`. Absent means enabled.
   */
  readonly enabledByDefault?: boolean;
  /** Findings with UTF-16 code-unit offsets into `input.text` (the engine converts to code points). */
  readonly analyze: (input: AnalysisInput) => Finding[];
};

/** One pattern of a Presidio PatternRecognizer (JSON shape of `ad_hoc_recognizers[].patterns[]`). */
export type AdHocPattern = {
  readonly name: string;
  readonly regex: string;
  readonly score: number;
};

/** Presidio's ad-hoc / custom PatternRecognizer JSON shape (snake_case as in its REST contract). */
export type AdHocRecognizer = {
  readonly name: string;
  readonly supported_entity: string;
  readonly supported_language?: string;
  readonly patterns?: readonly AdHocPattern[];
  readonly context?: readonly string[];
  readonly deny_list?: readonly string[];
  readonly deny_list_score?: number;
};

/** Request-level deny list: these values (exact words, or regexes) are always reported as `entity`. */
export type DenyListEntry = {
  readonly entity: string;
  readonly values: readonly string[];
  readonly match?: 'exact' | 'regex';
  readonly score?: number;
};

export type ScanOptions = {
  readonly language?: string;
  /** Only these entity types (default: every type enabled by default for the language). */
  readonly entities?: readonly string[];
  readonly scoreThreshold?: number;
  readonly perEntityThresholds?: Readonly<Record<string, number>>;
  readonly allowList?: readonly string[];
  readonly allowListMatch?: 'exact' | 'regex';
  readonly context?: readonly string[];
  readonly returnExplanation?: boolean;
  /** Regions for PHONE_NUMBER (phone-regions.ts validates them); absent: the recognizer's defaults. */
  readonly phoneRegions?: readonly CountryCode[];
};

export type ScanResult = {
  readonly detected: boolean;
  readonly entities: readonly Finding[];
  readonly redacted_text: string;
  /** True when zero-width/bidi controls were removed or compatibility forms folded before matching (normalize.ts). */
  readonly normalized: boolean;
};

export type EngineScanOptions = ScanOptions & {
  readonly adHocRecognizers?: readonly AdHocRecognizer[];
  readonly denyList?: readonly DenyListEntry[];
};

/** Called after each recognizer has run over one view of the text: `done` of `total` steps, and who ran. */
export type ScanProgress = (done: number, total: number, recognizer: string) => void;

export type PiiEngine = {
  /** Scan `text`; throws AppError('VALIDATION') for an unknown language/entity or an unsafe user regex. */
  readonly scan: (text: string, options?: EngineScanOptions, onProgress?: ScanProgress) => ScanResult;
  /** Every entity type that can be scanned for in `language` (all languages when omitted). */
  readonly entityTypes: (language?: string) => string[];
  /** Entity types scanned when the request gives no `entities` filter. */
  readonly defaultEntityTypes: (language?: string) => string[];
  readonly languages: () => string[];
};

export type CreatePiiEngineOptions = {
  readonly extraRecognizers?: readonly Recognizer[];
  /** JSON file: an array of AdHocRecognizer (or `{ "recognizers": [...] }`), loaded once at creation. */
  readonly customRecognizersFile?: string;
};
