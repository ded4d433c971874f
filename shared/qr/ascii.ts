/**
 * Text for the QR payload: printable ASCII only (0x20-0x7E), so that lengths count bytes and every
 * reader shows the same thing. Accents are stripped (NFD, then the combining marks removed: "á" ->
 * "a", "ñ" -> "n", "ü" -> "u"), letters that do not decompose are spelled out ("ß" -> "ss",
 * "æ" -> "ae", "ø" -> "o", "º" -> "o"), typographic punctuation becomes its ASCII look-alike, any
 * other character is dropped, runs of white space become one space, and the result is trimmed, cut
 * to the maximum and trimmed again (no trailing space left by the cut).
 */
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;

const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ł: 'l',
  Ł: 'L',
  ı: 'i',
  º: 'o',
  ª: 'a',
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u00B4': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
};

const SPELLED_OUT_PATTERN = new RegExp(`[${Object.keys(SPELLED_OUT).join('')}]`, 'gu');
const COMBINING_MARKS = /\p{M}/gu;
const WHITE_SPACE = /\s+/gu;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7E]/g;
const PRINTABLE_ASCII_ONLY = /^[\x20-\x7E]*$/;

/** True when `text` has a character outside printable ASCII (an accent, an emoji, a control...). */
export function hasNonAscii(text: string): boolean {
  return !PRINTABLE_ASCII_ONLY.test(text);
}

/** The ASCII form of `text`, at most `maxLength` characters (see the module comment). */
export function toQrText(text: string, maxLength: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(SPELLED_OUT_PATTERN, (char) => SPELLED_OUT[char] ?? '')
    .replace(WHITE_SPACE, ' ')
    .replace(NOT_PRINTABLE_ASCII, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return ascii.slice(0, maxLength).trimEnd();
}

export const merchantNameForQr = (name: string): string => toQrText(name, MERCHANT_NAME_MAX);
export const merchantCityForQr = (city: string): string => toQrText(city, MERCHANT_CITY_MAX);
