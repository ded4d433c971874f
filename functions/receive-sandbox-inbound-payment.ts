/** POST /sandbox/payments/inbound: someone at another bank pays a key of one of the client's merchants (docs/sandbox.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { receiveSandboxInboundPayment } from '../shared/domain/sandbox-inbound';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { inboundPaymentPorts } from '../shared/data/inbound-payment-ports';
import { signedCredits } from './receive-network-credit';
import { httpHandler } from '../shared/http/handler';
import type { SandboxInboundPaymentRequest } from '../shared/schemas/payments';
import { sandboxInboundPaymentRequest } from '../shared/schemas/generated/payments';

export const handler = httpHandler<SandboxInboundPaymentRequest>({
  name: 'receiveSandboxInboundPayment',
  body: sandboxInboundPaymentRequest,
  handle: ({ auth, body, idempotencyKey }) =>
    receiveSandboxInboundPayment(
      { ...systemNewRecords, ...inboundPaymentPorts(), directory: dynamoDirectory, network: signedCredits },
      auth.tenant,
      body,
      idempotencyKey,
    ),
});
