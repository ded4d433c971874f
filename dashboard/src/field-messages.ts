/**
 * The API's field errors in the person's language. The API words its refusals in English (for the
 * platform's engineers and its logs); the messages a person meets in the dashboard's forms are
 * matched here by that wording and said in their language, the values they carry (a length, a host)
 * kept. On its own (no DOM), so a unit test feeds it what the API really answers.
 */
import { t } from './i18n';

/**
 * The API's field messages a person meets, in their language: by the API's own wording
 * (shared/domain/webhook-urls.ts for an address), its values carried over. First match wins.
 */
const FIELD_MESSAGES: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  [/COP amount|amount with two decimals/, () => t('field.amountInPesos')],
  [/must not be blank|is required/, () => t('field.needed')],
  [/^must (?:be at most|NOT have more than) (\d+) characters/, (m) => t('field.tooLong', { count: m[1]! })],
  [/^must be an absolute URL/, () => t('field.absoluteUrl')],
  [/^must be an https URL \(http is accepted only/, () => t('field.httpsOnlyLocal')],
  [/^must be an https URL/, () => t('field.httpsOnly')],
  [/^must not carry credentials/, () => t('field.noCredentials')],
  [/^has a host, (\S+), that could not be resolved just now/, (m) => t('field.hostUnresolvedNow', { host: m[1]! })],
  [/^has a host, (\S+), that does not resolve/, (m) => t('field.hostUnknown', { host: m[1]! })],
  [/^must not point to anything but this machine/, () => t('field.notThisMachine')],
  [/^must not point to a non-public address/, () => t('field.notPublic')],
  [/^must name port 443 or none/, () => t('field.port443')],
];

/** An API field error in words: known messages in the person's language, the rest as the API words it. */
export function plainFieldMessage(message: string): string {
  for (const [pattern, say] of FIELD_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return say(match);
  }
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!]$/.test(message) ? '' : '.'}`;
}
