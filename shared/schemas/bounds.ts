/**
 * The bounds the schemas state and the functions enforce beside them, as plain values: the functions
 * read them from here, so that no function bundles a schema module for a number (the builders'
 * calls there are kept by esbuild, which reads their @__NO_SIDE_EFFECTS__ within common.ts only).
 */

/** The page-size and page-number bounds (docs/pagination.md), read by shared/domain/lists.ts too. */
export const MAX_PAGE_SIZE = 100;
export const MAX_PAGE_NUMBER = 1_000_000_000;

/**
 * How many whole UTC days back GET /v1/events reaches, besides today's: the repository's TTL keeps
 * every event at least that long (shared/data/events.ts).
 */
export const EVENT_RETENTION_DAYS = 30;

/** The most characters of a webhook URL; shared/domain/webhook-urls.ts holds the other URL rules. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
