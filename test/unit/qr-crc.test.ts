/** CRC-16/CCITT-FALSE as EMVCo uses it for tag 63. */
import { crc16, crc16Hex } from '../../shared/qr/crc';

/** The textbook bit-by-bit definition, to check the table-driven one against. */
function bitwiseCrc(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

// The BCB Pix specification's static example and a Bre-B payload published as an SDK example; both
// carry a CRC computed by their publishers.
const PIX_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const BREB_EXAMPLE =
  '00020101021226330015CO.COM.VISI.LLA0210301334848649270015CO.COM.VISI.RED0104VISI520404125303170540810000.005802CO5914Merchant QYSRF6004Cali610610101062970103123021035035034560308sasc0193040412340503abc060400010702010802020905EMAIL1009205633311110340080290017CO.COM.VISI.CANAL0104MPOS81260016CO.COM.VISI.CIVA01020282290015CO.COM.VISI.IVA0106100.0083290016CO.COM.VISI.BASE0105100.084260016CO.COM.VISI.CINC01020285280015CO.COM.VISI.INC010510.0090350017CO.COM.VISI.TRXID0110P78569478491870015CO.COM.VISI.SEC0164474ba16e2433a928a69b7a6eb54efbabecba7c0aef862d39fca7b379d057ba1b63045B8F';

describe('crc16Hex', () => {
  test.each([
    ['123456789', '29B1'],
    ['', 'FFFF'],
    ['A', 'B915'],
  ])('CRC of %j is %s', (input, expected) => {
    expect(crc16Hex(input)).toBe(expected);
  });

  test.each([
    ['the BCB Pix example', PIX_EXAMPLE, '1D3D'],
    ['the Bre-B SDK example', BREB_EXAMPLE, '5B8F'],
  ])('%s: the CRC of everything up to and including 6304 is the published %s', (_name, payload, crc) => {
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(crc16Hex(payload.slice(0, -4))).toBe(crc);
  });

  test('is 4 upper-case hex digits, zero-padded', () => {
    for (let i = 0; i < 2000; i += 1) expect(crc16Hex(`payload-${i}`)).toMatch(/^[0-9A-F]{4}$/);
    // Some input has a CRC below 0x1000, so the padding is exercised.
    expect(Array.from({ length: 2000 }, (_, i) => crc16Hex(`payload-${i}`)).some((hex) => hex.startsWith('0'))).toBe(
      true,
    );
  });

  test('the table agrees with the bit-by-bit definition', () => {
    const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 37 + 11) & 0xff);
    for (let length = 0; length <= bytes.length; length += 7) {
      const slice = bytes.subarray(0, length);
      expect(crc16(slice)).toBe(bitwiseCrc(slice));
    }
  });

  test('text is read as UTF-8 bytes, so strings and their bytes agree', () => {
    for (const text of ['Bogotá', 'Ñandú', 'plain ASCII', '€ and 😀']) {
      expect(crc16(text)).toBe(crc16(Buffer.from(text, 'utf8')));
      expect(crc16(text)).toBe(bitwiseCrc(Buffer.from(text, 'utf8')));
    }
  });
});
