/** The plural forms English needs beyond `other`; a language without plurals (Chinese) has only `_other`. */
type EnglishOnlyPlural = `${string}_${'zero' | 'one' | 'two' | 'few' | 'many'}`;

/**
 * Another language's catalog for an English one: the same keys (so tsc names a missing or an extra key), every
 * message a string, and only the `_other` form of a plural.
 */
export type CatalogOf<English> = {
  [Key in keyof English as Key extends EnglishOnlyPlural ? never : Key]: English[Key] extends string ? string : CatalogOf<English[Key]>;
};
