/**
 * Masking a person's numbers where they are shown to people (docs/privacy.md, "Masking"): a document
 * or account number keeps its last four characters (`****4050`), enough to tell two apart, not to
 * use one. What the API answers is the contract's and is never masked here.
 */

/** `1020304050` as `****4050`; a value of four characters or fewer is all masked. */
export const maskNumber = (value: string): string => `****${value.length > 4 ? value.slice(-4) : ''}`;

/** Whether `value` is already a masked number. */
export const isMasked = (value: string): boolean => value.startsWith('****');
