/** Every image we render reads back, with an independent reader (pngjs + jsQR), as its payload. */
import { PNG } from 'pngjs';
import { encodeEmvPayload } from '../../shared/qr/emv-payload';
import { qrScale, renderQrBase64, renderQrPng } from '../../shared/qr/image';
import { modulesToPng } from '../../shared/qr/png';
import {
  BREB_EXAMPLE,
  HYBRID_SAMPLE,
  LARGEST_SAMPLE,
  PIX_EXAMPLE,
  QR_SETTINGS,
  readQrPng,
  STATIC_SAMPLE,
} from '../support/qr-fixtures';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('renderQrPng', () => {
  test.each([
    ['a STATIC code', encodeEmvPayload(STATIC_SAMPLE, QR_SETTINGS)],
    ['a hybrid code', encodeEmvPayload(HYBRID_SAMPLE, QR_SETTINGS)],
    ['the densest code we make', encodeEmvPayload(LARGEST_SAMPLE, QR_SETTINGS)],
    ['the Pix example', PIX_EXAMPLE],
    ['the Bre-B example', BREB_EXAMPLE],
  ])('%s reads back as its payload, in a 1-bit PNG of 290-425 px', async (_name, payload) => {
    const png = await renderQrPng(payload);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const read = readQrPng(png);
    expect(read.text).toBe(payload);
    expect(read.width).toBe(read.height);
    expect(read.width).toBeGreaterThanOrEqual(290);
    expect(read.width).toBeLessThanOrEqual(425);
    expect(read.bitDepth).toBe(1);
  });

  test('the densest code we make is still under 800 characters and a few KiB of PNG', async () => {
    const payload = encodeEmvPayload(LARGEST_SAMPLE, QR_SETTINGS);
    expect(payload.length).toBeLessThan(800);
    expect((await renderQrPng(payload)).length).toBeLessThan(8 * 1024);
  });

  test('renderQrBase64 is the PNG in Base64, without a data: prefix', async () => {
    const payload = encodeEmvPayload(HYBRID_SAMPLE, QR_SETTINGS);
    const base64 = await renderQrBase64(payload);
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(base64, 'base64')).toEqual(await renderQrPng(payload));
  });
});

describe('qrScale', () => {
  test('every QR version (21 to 177 modules) lands between 290 and 425 px, whole pixels per module', () => {
    for (let version = 1; version <= 40; version += 1) {
      const size = 17 + 4 * version;
      const scale = qrScale(size);
      expect(Number.isInteger(scale)).toBe(true);
      expect((size + 8) * scale).toBeGreaterThanOrEqual(290);
      expect((size + 8) * scale).toBeLessThanOrEqual(425);
    }
  });
});

describe('modulesToPng', () => {
  test('draws each module as a scale x scale square inside the margin, dark as black', () => {
    // A 3 x 3 matrix with a diagonal and one more dark module.
    const data = Uint8Array.from([1, 0, 0, 0, 1, 1, 0, 0, 1]);
    const scale = 3;
    const margin = 2;
    const image = PNG.sync.read(modulesToPng({ size: 3, data }, scale, margin));
    const side = (3 + 2 * margin) * scale;
    expect([image.width, image.height]).toEqual([side, side]);
    for (let y = 0; y < side; y += 1) {
      for (let x = 0; x < side; x += 1) {
        const row = Math.floor(y / scale) - margin;
        const col = Math.floor(x / scale) - margin;
        const inside = row >= 0 && row < 3 && col >= 0 && col < 3;
        const dark = inside && data[row * 3 + col] === 1;
        const offset = (y * side + x) * 4;
        expect([image.data[offset], image.data[offset + 3]]).toEqual([dark ? 0 : 255, 255]);
      }
    }
  });

  test('rejects a scale that is not a positive whole number', () => {
    expect(() => modulesToPng({ size: 1, data: Uint8Array.of(1) }, 0, 4)).toThrow(RangeError);
    expect(() => modulesToPng({ size: 1, data: Uint8Array.of(1) }, 2.5, 4)).toThrow(RangeError);
  });
});
