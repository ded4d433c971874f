/** POST /sandbox/qrcodes/{id}/pay: the sandbox's shopper pays one of the client's QR codes (docs/payments.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { payQrCode } from '../shared/domain/pay-qr-code';
import { inboundPaymentPorts } from '../shared/data/inbound-payment-ports';
import { signedCredits } from './receive-network-credit';
import { httpHandler } from '../shared/http/handler';
import type { PayQrCodeRequest } from '../shared/schemas/payments';
import { payQrCodeRequest } from '../shared/schemas/generated/payments';

export const handler = httpHandler<PayQrCodeRequest, Record<string, never>, { id: string }>({
  name: 'paySandboxQrCode',
  body: payQrCodeRequest,
  handle: ({ auth, path, body, idempotencyKey }) =>
    payQrCode(
      { ...systemNewRecords, ...inboundPaymentPorts(), network: signedCredits },
      auth.tenant,
      path.id,
      body,
      idempotencyKey,
    ),
});
