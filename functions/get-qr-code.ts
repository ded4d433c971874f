/** GET /v1/qrcodes/{id}: one of the client's QR codes, with its image. */
import { readQrCode } from '../shared/domain/qrcodes';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getQrCode',
  handle: ({ auth, path }) => readQrCode(dynamoQrCodeStore, auth.tenant, path.id),
});
