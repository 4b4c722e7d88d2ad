/** Languages the built-in recognizers cover (ISO 639-1), after the reference's recognizer table. */
export const ALL_LANGUAGES = ['en', 'es', 'it', 'pl', 'de', 'fi', 'sv', 'tr', 'ko', 'th', 'fr', 'zh'] as const;
/** Language-agnostic recognizers (email, IP, phone…) run in every supported language. */
export const GENERIC_LANGUAGES: readonly string[] = ALL_LANGUAGES;
