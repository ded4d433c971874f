/**
 * The QR image of a payload: `qrcode` builds the symbol (error correction level M, automatic version
 * and mask), png.ts writes it as a 1-bit PNG with a 4-module quiet zone, at the whole number of
 * pixels per module that brings the image closest to 360 px (290 to 425 px whatever the QR version;
 * whole pixels per module keep every module the same size, which scanners like).
 */
// The symbol builder alone: the package's main module also loads renderers we never use (qrcode.d.ts).
import QRCode from 'qrcode/lib/core/qrcode.js';
import { modulesToPng } from './png';

export const QR_ERROR_CORRECTION = 'M';
export const QR_MARGIN = 4;
export const QR_TARGET_PIXELS = 360;

/** Pixels per module for a symbol of `size` modules. */
export function qrScale(size: number): number {
  return Math.max(1, Math.round(QR_TARGET_PIXELS / (size + 2 * QR_MARGIN)));
}

export async function renderQrPng(payload: string): Promise<Buffer> {
  const symbol = QRCode.create(payload, { errorCorrectionLevel: QR_ERROR_CORRECTION });
  return modulesToPng(symbol.modules, qrScale(symbol.modules.size), QR_MARGIN);
}

/** The PNG as Base64 (no data: prefix), the form of the API's qr_code_image. */
export async function renderQrBase64(payload: string): Promise<string> {
  return (await renderQrPng(payload)).toString('base64');
}
