/**
 * The route family "Sandbox": the sandbox's operator tools: what the network and the sponsor bank do on production (sandbox stages only). Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, INBOUND_PAYMENT_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const sandboxRoutes: RouteFamily = {
  name: 'sandbox',
  title: 'Sandbox',
  routes: [
    {
      name: 'paySandboxQrCode',
      method: 'POST',
      paths: ['/sandbox/qrcodes/{id}/pay'],
      handler: 'pay-sandbox-qr-code',
      summary: "Sandbox: pay one of the client's QR codes as a shopper would",
      schemas: { body: 'payQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
      problems: ['QR_CODE_STATUS_CONFLICT', 'KEY_STATUS_CONFLICT', 'CUSTOMER_INACTIVE', 'AMOUNT_ABOVE_LIMIT'],
      // It moves money into a merchant's balance: what may pay may play the shopper.
      scopes: [SCOPES.paymentsWrite],
      tableActions: INBOUND_PAYMENT_ACTIONS,
      writesMoney: true,
      // Opens the approval secrets to sign the approval request.
      sealing: ['open'],
      // The decision job, queued before the payment is written.
      queues: ['creditDecisions'],
      // Signs its credit with the connector secret, as a shopper's bank would (docs/network.md).
      secrets: ['network'],
      sandbox: true,
    },
    {
      name: 'receiveSandboxInboundPayment',
      method: 'POST',
      paths: ['/sandbox/payments/inbound'],
      handler: 'receive-sandbox-inbound-payment',
      summary: "Sandbox: pay a key of one of the client's merchants from another bank",
      schemas: { body: 'sandboxInboundPaymentRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
      problems: ['KEY_NOT_FOUND', 'KEY_STATUS_CONFLICT', 'CUSTOMER_INACTIVE', 'AMOUNT_ABOVE_LIMIT'],
      scopes: [SCOPES.paymentsWrite],
      // Reads the key's directory entry and the key; then sends the credit (POST /network/v1/credits's
      // handler, in process: its reads and writes are this function's).
      tableActions: INBOUND_PAYMENT_ACTIONS,
      writesMoney: true,
      // Opens the approval secrets to sign the approval request.
      sealing: ['open'],
      // The decision job, queued before the payment is written.
      queues: ['creditDecisions'],
      // Signs its credit with the connector secret, as a shopper's bank would (docs/network.md).
      secrets: ['network'],
      sandbox: true,
    },
    {
      name: 'approveSponsorBankMerchant',
      method: 'POST',
      paths: ['/sandbox/sponsor-bank/merchants'],
      handler: 'approve-sponsor-bank-merchant',
      summary: 'Sandbox: approve a merchant and its accounts at the sponsor bank',
      schemas: {
        body: 'approveSponsorBankMerchantRequestSchema',
        query: 'emptyQuerySchema',
        response: 'approvedMerchantSchema',
      },
      status: 201,
      // A NIT approved for another client is theirs (shared/domain/sponsor-bank.ts).
      problems: ['FORBIDDEN'],
      // Plays the sponsor bank: only full-access clients and admins (docs/sandbox.md).
      scopes: [SCOPES.sandboxOperate],
      tableActions: [...IDEMPOTENCY_ACTIONS, 'Query'],
      sandbox: true,
    },
    {
      name: 'addSandboxDirectoryKey',
      method: 'POST',
      paths: ['/sandbox/directory/keys'],
      handler: 'add-sandbox-directory-key',
      summary: 'Sandbox: add a key of someone at another participant to the directory',
      schemas: {
        body: 'sandboxDirectoryKeyRequestSchema',
        query: 'emptyQuerySchema',
        response: 'sandboxDirectoryKeySchema',
      },
      status: 201,
      problems: ['KEY_ALREADY_REGISTERED'],
      // Writes the directory every tenant shares: only full-access clients and admins (docs/sandbox.md).
      scopes: [SCOPES.sandboxOperate],
      // One transaction puts the entry and checks the sponsor bank's merchants of the NITs it names.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      sandbox: true,
    },
  ],
};
