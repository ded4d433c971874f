/** Shared by the QR tests: sample inputs, third-party payloads and an independent QR reader. */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { EmvPayloadInput, EmvSettings } from '../../shared/qr/emv-input';

export const QR_SETTINGS: EmvSettings = { acquirerId: 'RBM', signingSecret: 'fixture-secret' };

// The BCB Pix specification's static example (CRC 1D3D).
export const PIX_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
// A Bre-B payload of another acquirer (VISI), published as an SDK example (CRC 5B8F).
export const BREB_EXAMPLE =
  '00020101021226330015CO.COM.VISI.LLA0210301334848649270015CO.COM.VISI.RED0104VISI520404125303170540810000.005802CO5914Merchant QYSRF6004Cali610610101062970103123021035035034560308sasc0193040412340503abc060400010702010802020905EMAIL1009205633311110340080290017CO.COM.VISI.CANAL0104MPOS81260016CO.COM.VISI.CIVA01020282290015CO.COM.VISI.IVA0106100.0083290016CO.COM.VISI.BASE0105100.084260016CO.COM.VISI.CINC01020285280015CO.COM.VISI.INC010510.0090350017CO.COM.VISI.TRXID0110P78569478491870015CO.COM.VISI.SEC0164474ba16e2433a928a69b7a6eb54efbabecba7c0aef862d39fca7b379d057ba1b63045B8F';

export const STATIC_SAMPLE: EmvPayloadInput = {
  type: 'STATIC',
  key: { keyType: 'ALPHA', keyValue: '@tienda123' },
  merchant: { name: 'Panadería La Esperanza del Norte', city: 'Bogotá D.C.', postCode: '110111', mcc: '5462' },
  channel: 'POS',
  reference: 'ABC123',
  additional: { terminalLabel: 'T001', purpose: '00' },
};

export const HYBRID_SAMPLE: EmvPayloadInput = {
  type: 'STATIC',
  key: { keyType: 'ID', keyValue: '1020304050' },
  merchant: { name: 'Cafe Central', city: 'Medellin', postCode: '050021', mcc: '5814' },
  amount: '15000.00',
  tip: { type: 'REQUEST' },
  vat: { type: 'FIXED', value: '2394.96', baseValue: '12605.04' },
  inc: { type: 'WALLET' },
  channel: 'IM',
  reference: '9876543210',
};

/** Every optional field at its longest that still fits: the densest code this profile makes. */
export const LARGEST_SAMPLE: EmvPayloadInput = {
  type: 'DYNAMIC',
  key: { keyType: 'EMAIL', keyValue: `${'a'.repeat(30)}@${'b'.repeat(43)}.co` },
  merchant: {
    name: 'Distribuidora Nacional de Café y Panela',
    city: 'San José del Guaviare',
    postCode: '9500011234',
    mcc: '5499',
    nit: '123456789012345',
  },
  amount: '9999999999.99',
  tip: { type: 'FIXED', value: '9999999999.99' },
  vat: { type: 'FIXED', value: '9999999999.99', baseValue: '9999999999.99' },
  inc: { type: 'FIXED', value: '9999999999.99' },
  channel: 'ECOMM',
  reference: 'ABCDEFGHIJKLMNOQR',
  additional: {
    invoiceNumber: 'I'.repeat(25),
    terminalLabel: 'T'.repeat(25),
    purpose: '05',
    customerInfo: 'A',
    channelPresentation: '733',
  },
};

export interface ReadQr {
  readonly text: string;
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
}

/** Reads a PNG with pngjs and the code in it with jsQR: libraries independent of the writer. */
export function readQrPng(png: Buffer): ReadQr {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const code = jsQR(pixels, image.width, image.height, { inversionAttempts: 'dontInvert' });
  if (!code) throw new Error('jsQR found no QR code in the image');
  return { text: code.data, width: image.width, height: image.height, bitDepth: image.depth };
}
