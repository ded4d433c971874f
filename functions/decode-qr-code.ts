/** POST /v1/qrcodes/decode: the fields of any EMVCo merchant payload, ours or another acquirer's. */
import { decodeQrCode } from '../shared/domain/qrcodes';
import { decodeSettings } from '../shared/data/qr-signing-keys';
import { httpHandler } from '../shared/http/handler';
import { decodeQrCodeRequestSchema, type DecodeQrCodeRequest } from '../shared/schemas/qrcodes';

export const handler = httpHandler<DecodeQrCodeRequest>({
  name: 'decodeQrCode',
  body: decodeQrCodeRequestSchema,
  handle: async ({ body }) => decodeQrCode(await decodeSettings(), body.qr_code_data),
});
