/** POST /sandbox/qrcodes/{id}/pay: the sandbox's shopper pays one of the client's QR codes (docs/payments.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { payQrCode } from '../shared/domain/pay-qr-code';
import { dynamoKeyStore } from '../shared/data/keys-repository';
import { dynamoQrPaymentStore } from '../shared/data/payments-repository';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { httpHandler } from '../shared/http/handler';
import type { PayQrCodeRequest } from '../shared/schemas/payments';
import { payQrCodeRequest } from '../shared/schemas/generated/payments';

const deps = {
  ...systemNewRecords,
  qrCodes: dynamoQrCodeStore,
  keys: dynamoKeyStore,
  payments: dynamoQrPaymentStore,
};

export const handler = httpHandler<PayQrCodeRequest, Record<string, never>, { id: string }>({
  name: 'paySandboxQrCode',
  body: payQrCodeRequest,
  oneTransaction: true,
  handle: ({ auth, path, body }) => payQrCode(deps, auth.tenant, path.id, body),
});
