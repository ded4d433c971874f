/** POST /v1/qrcodes: a static, hybrid or dynamic payment QR code for a merchant's key (docs/qrcodes.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { createQrCode } from '../shared/domain/qrcodes';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { emvSettings } from '../shared/data/qr-signing-keys';
import { dynamoQrCodeWrites } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';
import { renderQrBase64 } from '../shared/qr/image';
import type { CreateQrCodeRequest } from '../shared/schemas/qrcodes';
import { createQrCodeRequest } from '../shared/schemas/generated/qrcodes';

export const handler = httpHandler<CreateQrCodeRequest>({
  name: 'createQrCode',
  body: createQrCodeRequest,
  oneTransaction: true,
  // The image (some 2 KB) is drawn from the payload, as GET draws it: not kept under the key.
  redrawnOnReplay: { field: 'qr_code_image', from: 'qr_code_data', draw: renderQrBase64 },
  handle: ({ auth, body }) =>
    createQrCode(
      {
        ...systemNewRecords,
        customers: dynamoCustomerWrites,
        keys: dynamoKeyWrites,
        qrCodes: dynamoQrCodeWrites,
        emvSettings,
        drawImage: renderQrBase64,
      },
      auth.tenant,
      body,
    ),
});
