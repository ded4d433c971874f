/** GET /v1/qrcodes/{id}: one of the client's QR codes, with its image. */
import { readQrCode } from '../shared/domain/qrcodes';
import { dynamoQrCodeWrites } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';
import { renderQrBase64 } from '../shared/qr/image';

const deps = { qrCodes: dynamoQrCodeWrites, drawImage: renderQrBase64 };

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getQrCode',
  handle: ({ auth, path }) => readQrCode(deps, auth.tenant, path.id),
});
