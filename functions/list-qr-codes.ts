/** GET /v1/qrcodes: the client's QR codes, a page at a time, without their images. */
import { systemClock } from '../shared/domain/clock';
import { listQrCodes } from '../shared/domain/qrcodes';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';
import type { QrCodeListQuery } from '../shared/schemas/qrcodes';
import { qrCodeListQuery } from '../shared/schemas/generated/qrcodes';

export const handler = httpHandler<undefined, QrCodeListQuery>({
  name: 'listQrCodes',
  query: qrCodeListQuery,
  handle: ({ auth, query }) => listQrCodes(dynamoQrCodeStore, auth.tenant, query, systemClock.now()),
});
