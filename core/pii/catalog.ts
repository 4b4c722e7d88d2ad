/**
 * What an engine can scan for (languages, entity types), computed from its recognizers' declarations alone.
 * The engine answers these questions with it, and so does the serving main thread without building an engine:
 * with the scan workers running, the main thread needs the catalog (language checks, `pii.entityTypes`, the
 * status route), never the recognizers' code (compromise's tagger loads only in the workers).
 */
import type { PiiEngine, Recognizer } from './types.ts';

/** The part of a recognizer that says what it finds, without the code that finds it. */
export type RecognizerInfo = Pick<Recognizer, 'supportedEntities' | 'supportedLanguages' | 'enabledByDefault'>;

export type EngineCatalog = Pick<PiiEngine, 'entityTypes' | 'defaultEntityTypes' | 'languages'>;

export const supportsLanguage = (r: RecognizerInfo, language: string): boolean => r.supportedLanguages.includes(language);

/** Entity types of the recognizers that support `language` (all when omitted); `onlyDefault`: enabled by default. */
export const entityTypesOf = (recognizers: readonly RecognizerInfo[], language: string | undefined, onlyDefault: boolean): string[] => {
  const types = new Set<string>();
  for (const r of recognizers) {
    if (language !== undefined && !supportsLanguage(r, language)) continue;
    if (onlyDefault && r.enabledByDefault === false) continue;
    for (const e of r.supportedEntities) types.add(e);
  }
  return [...types].sort();
};

export const catalogOf = (recognizers: readonly RecognizerInfo[]): EngineCatalog => {
  const languages = [...new Set(recognizers.flatMap((r) => r.supportedLanguages))].sort();
  return {
    entityTypes: (language) => entityTypesOf(recognizers, language, false),
    defaultEntityTypes: (language) => entityTypesOf(recognizers, language, true),
    languages: () => [...languages],
  };
};
