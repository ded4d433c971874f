/**
 * POST /network/v1/credits (docs/network.md, "Credits"): a shopper's bank pays one of our merchants'
 * keys or QR codes, signed by the connector. The merchant's inbound approval decides it; one credit
 * per end_to_end_id, however often it is sent. The sandbox's inbound routes run this very handler
 * with a credit they sign (functions/sandbox-credits.ts).
 */
import { systemNewRecords } from '../shared/domain/clock';
import { receiveCredit } from '../shared/domain/network-credits';
import { verifySignedMessage } from '../shared/domain/webhook-signature';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { inboundPaymentPorts } from '../shared/data/inbound-payment-ports';
import { networkSecrets } from '../shared/data/network-secret';
import { dynamoQrCodeReferences } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { networkHandler } from '../shared/http/network-handler';
import type { CreditRequest } from '../shared/schemas/network';
import { creditRequest } from '../shared/schemas/generated/network';

/** A copy of a credit waits this long for the first copy's decision (its approval callback has 3 s). */
const DECISION_WAIT = { maxMs: 5_000, pollMs: 200 };

export const handler = networkHandler<CreditRequest>({
  name: 'receiveNetworkCredit',
  body: creditRequest,
  verify: async (headers, body) =>
    verifySignedMessage(headers, body, await networkSecrets(), Math.floor(Date.now() / 1000)),
  handle: async ({ body }) => {
    const deps = {
      ...systemNewRecords,
      ...inboundPaymentPorts(),
      directory: dynamoDirectory,
      qrReferences: dynamoQrCodeReferences,
      decisionWait: DECISION_WAIT,
    };
    const answer = await receiveCredit(deps, body);
    logger.info('Network credit', {
      end_to_end_id: body.end_to_end_id,
      status: answer.status,
      reason: answer.reason,
      payment_id: answer.payment_id,
    });
    return answer;
  },
});
