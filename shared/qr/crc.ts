/**
 * CRC-16/CCITT-FALSE, the EMVCo QR checksum: polynomial 0x1021, initial value 0xFFFF, no reflection,
 * no final xor. Computed over the payload's bytes (UTF-8; our payloads are ASCII) with a 256-entry
 * table, one lookup per byte. Check value: crc16('123456789') = 0x29B1.
 */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

// eslint-disable-next-line no-control-regex -- the whole 7-bit range is the point: control characters are ASCII too.
const ASCII = /^[\x00-\x7F]*$/;

export function crc16(input: string | Uint8Array): number {
  let crc = 0xffff;
  if (typeof input === 'string' && ASCII.test(input)) {
    for (let i = 0; i < input.length; i += 1) {
      crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ input.charCodeAt(i)) & 0xff]!) & 0xffff;
    }
    return crc;
  }
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  for (let i = 0; i < bytes.length; i += 1) {
    crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!) & 0xffff;
  }
  return crc;
}

/** The CRC as tag 63 writes it: 4 upper-case hex digits. */
export function crc16Hex(input: string | Uint8Array): string {
  return crc16(input).toString(16).toUpperCase().padStart(4, '0');
}
