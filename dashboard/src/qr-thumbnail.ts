/**
 * A QR code's thumbnail drawn in the browser from its payload, as an SVG: lists carry the payload
 * but not the image (the API draws images only for one code), and one image request per row would
 * spend the tenant's rate limit. The symbol is built by the library the API uses, with the same
 * error correction, so the thumbnail is the API's image, smaller.
 */
import QRCode from 'qrcode/lib/core/qrcode.js';

const QUIET_ZONE = 4;

/** An SVG data URL of the payload's symbol: one path of dark modules on a white square. */
export function qrThumbnailUrl(payload: string): string {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const side = modules.size + 2 * QUIET_ZONE;
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
