/** DELETE /v1/qrcodes/{id}: the code becomes DELETED and can no longer be paid (docs/qrcodes.md). */
import { systemClock } from '../shared/domain/clock';
import { deleteQrCode } from '../shared/domain/qrcodes';
import { dynamoQrCodeWrites } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'deleteQrCode',
  handle: ({ auth, path }) => deleteQrCode({ qrCodes: dynamoQrCodeWrites, clock: systemClock }, auth.tenant, path.id),
});
