/** POST /v1/qrcodes/decode: the fields of any EMVCo merchant payload, ours or another acquirer's. */
import { decodeQrCode } from '../shared/domain/qrcodes';
import { decodeSettings } from '../shared/data/qr-signing-keys';
import { httpHandler } from '../shared/http/handler';
import type { DecodeQrCodeRequest } from '../shared/schemas/qrcodes';
import { decodeQrCodeRequest } from '../shared/schemas/generated/qrcodes';

export const handler = httpHandler<DecodeQrCodeRequest>({
  name: 'decodeQrCode',
  body: decodeQrCodeRequest,
  // Writes nothing: an Idempotency-Key's answer is recorded in one write.
  oneTransaction: true,
  handle: async ({ body }) => decodeQrCode(await decodeSettings(), body.qr_code_data),
});
