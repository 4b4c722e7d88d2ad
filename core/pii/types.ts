/**
 * The PII engine's contract, after Presidio's analyzer model (../shared/reference/presidio.md). Offsets are
 * decided once for the whole product: see docs/decisions.md ("PII offsets").
 */

/** Why a finding has the score it has (returned when the caller asks for explanations). */
export type Explanation = {
  readonly recognizer: string;
  readonly pattern?: string;
  readonly originalScore: number;
  readonly score: number;
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

/** What every recognizer sees: the text plus lazily computed shared analysis (tokens for context, NER). */
export type AnalysisInput = {
  readonly text: string;
  readonly language: string;
};

export type Recognizer = {
  readonly name: string;
  readonly supportedEntities: readonly string[];
  readonly supportedLanguages: readonly string[];
  /** Context words that lift a nearby finding (Presidio's LemmaContextAwareEnhancer). */
  readonly context: readonly string[];
  readonly analyze: (input: AnalysisInput) => Finding[];
};

export type ScanOptions = {
  readonly language?: string;
  /** Only these entity types (default: every type loaded for the language). */
  readonly entities?: readonly string[];
  readonly scoreThreshold?: number;
  readonly perEntityThresholds?: Readonly<Record<string, number>>;
  readonly allowList?: readonly string[];
  readonly allowListMatch?: 'exact' | 'regex';
  readonly context?: readonly string[];
  readonly returnExplanation?: boolean;
};

export type ScanResult = {
  readonly detected: boolean;
  readonly entities: readonly Finding[];
  readonly redacted_text: string;
};
