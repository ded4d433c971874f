/**
 * Types for the parts of `qrcode` (CommonJS, no bundled types) this repository uses. The functions
 * import its symbol builder alone, `qrcode/lib/core/qrcode.js`: the package's main module also loads
 * every renderer (SVG, terminal, UTF-8, canvas, and PNG through pngjs), which would ride along in each
 * QR function's bundle; only the QR benchmark loads it, to compare with the library's own PNG writer.
 * `import QRCode from '...'` is ESM-safe: Node, tsx, jest's ESM mode and esbuild all hand a CommonJS
 * module's `module.exports` over as the default export.
 */
declare module 'qrcode/lib/core/qrcode.js' {
  export type ErrorCorrectionLevel = 'L' | 'M' | 'Q' | 'H';

  export interface QRCodeCreateOptions {
    readonly errorCorrectionLevel?: ErrorCorrectionLevel;
    readonly version?: number;
    readonly maskPattern?: number;
  }

  export interface BitMatrix {
    /** Modules per side. */
    readonly size: number;
    /** size * size entries, row by row: 1 dark, 0 light. */
    readonly data: Uint8Array;
    get(row: number, col: number): number;
  }

  export interface QRCodeSymbol {
    readonly modules: BitMatrix;
    readonly version: number;
    readonly maskPattern: number;
  }

  export function create(text: string, options?: QRCodeCreateOptions): QRCodeSymbol;

  const QRCode: { create: typeof create };
  export default QRCode;
}

declare module 'qrcode' {
  import type { QRCodeCreateOptions, QRCodeSymbol } from 'qrcode/lib/core/qrcode.js';

  export interface QRCodeRenderOptions extends QRCodeCreateOptions {
    readonly margin?: number;
    readonly scale?: number;
    readonly width?: number;
  }

  export function create(text: string, options?: QRCodeCreateOptions): QRCodeSymbol;
  export function toBuffer(text: string, options?: QRCodeRenderOptions): Promise<Buffer>;
  export function toDataURL(text: string, options?: QRCodeRenderOptions): Promise<string>;

  const QRCode: {
    create: typeof create;
    toBuffer: typeof toBuffer;
    toDataURL: typeof toDataURL;
  };
  export default QRCode;
}
