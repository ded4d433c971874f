/**
 * POST /network/v1/credits (docs/network.md, "Credits"): a shopper's bank pays one of our merchants'
 * keys or QR codes, signed by the connector. The merchant's inbound approval decides it; one credit
 * per end_to_end_id, however often it is sent. The sandbox's inbound routes run this very handler
 * with a credit they sign (`signedCredits`, below).
 */
import { systemNewRecords } from '../shared/domain/clock';
import { receiveCredit } from '../shared/domain/network-credits';
import type { CreditNetwork } from '../shared/domain/sandbox-inbound';
import { signedHeaders } from '../shared/domain/webhook-signature';
import { dynamoCreditAnswers } from '../shared/data/credit-answers-repository';
import { dynamoMerchantCreditDays } from '../shared/data/merchant-credit-days';
import { readNetworkLimits } from '../shared/runtime/config';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { CREDIT_DECISION_WAIT, inboundPaymentPorts } from '../shared/data/inbound-payment-ports';
import { networkSecrets } from '../shared/data/network-secret';
import { dynamoQrCodeReferences } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { callNetworkRoute, networkHandler } from '../shared/http/network-handler';
import type { CreditAnswer, CreditRequest } from '../shared/schemas/network';
import { creditRequest } from '../shared/schemas/generated/network';
import { verifyNetworkRequest } from './network-ports';

export const handler = networkHandler<CreditRequest>({
  name: 'receiveNetworkCredit',
  body: creditRequest,
  verify: verifyNetworkRequest,
  handle: async ({ body }) => {
    const deps = {
      ...systemNewRecords,
      ...inboundPaymentPorts(),
      creditAnswers: dynamoCreditAnswers,
      limits: { ...readNetworkLimits(), days: dynamoMerchantCreditDays },
      directory: dynamoDirectory,
      qrReferences: dynamoQrCodeReferences,
      decisionWait: CREDIT_DECISION_WAIT,
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

/**
 * The sandbox simulator's way to the network's door: its credit, signed with the connector secret,
 * handed to this route's handler in process (its signature check, validation and work). In process,
 * not over HTTP: on Lambda a function cannot be given its own API's URL (the API depends on the
 * function, so the URL in its environment would be a cycle), and the credit would leave and re-enter
 * AWS for nothing (docs/network.md, "The sandbox").
 */
export const signedCredits: CreditNetwork = {
  credit: async (credit) =>
    (await callNetworkRoute(
      handler,
      { name: 'receiveNetworkCredit', path: '/network/v1/credits' },
      credit,
      async (raw, id) => ({
        ...signedHeaders(id, Math.floor(Date.now() / 1000), raw, await networkSecrets()),
      }),
    )) as CreditAnswer,
};
