/** The QR code library: payload encoding and decoding (EMVCo, Bre-B profile) and the PNG image. */
export * from './ascii';
export * from './crc';
export * from './decode-error';
export * from './emv-decode';
export * from './emv-input';
export { encodeEmvPayload, encodeUnsignedPayload, prefixedReference } from './emv-payload';
export * from './image';
export * from './signature';
export * from './tags';
export * from './tlv';
