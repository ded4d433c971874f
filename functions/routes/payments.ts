/**
 * The route family "Payments and refunds": paying out, refunding, the saved recipients, the approval of inbound payments, and the reconciliation with the sponsor bank. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const paymentRoutes: RouteFamily = {
  name: 'payments',
  title: 'Payments and refunds',
  routes: [
    {
      name: 'createPayment',
      method: 'POST',
      paths: ['/v1/payments'],
      handler: 'create-payment',
      summary: "Pay a resolved key or a saved recipient from one of the client's accounts",
      schemas: { body: 'createPaymentRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
      problems: [
        'NOT_FOUND',
        'FORBIDDEN',
        'CUSTOMER_INACTIVE',
        'ACCOUNT_INACTIVE',
        'INSUFFICIENT_FUNDS',
        'AMOUNT_ABOVE_LIMIT',
        'IDEMPOTENCY_KEY_REQUIRED',
        'KEY_NOT_FOUND',
        'RESOLUTION_ALREADY_USED',
        'RECIPIENT_KEY_CHANGED',
        'LOOKUP_LIMITED',
      ],
      scopes: [SCOPES.paymentsWrite],
      // Reads the resolution, the customer, the account and the payee's key and account; the
      // transaction marks the resolution used, checks the payer, updates its balance, puts the payment,
      // its movement and its event, and updates the counters; a PENDING payment's settlement is then
      // scheduled on the settlement queue. A payment to one of our merchants then receives the payee's
      // credit as POST /network/v1/credits does (the payee's approval asked), and answers the payment.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      writesMoney: true,
      // The payment's settlement job; a payment to one of our merchants, the payee's decision job.
      queues: ['settlement', 'creditDecisions'],
      // Opens the payee's approval secrets to sign its approval request.
      sealing: ['open'],
      // A recipient's key is resolved again through the stage's directory: on a connector stage the
      // network's, signed (docs/network.md, "Directory").
      secrets: ['network'],
    },
    {
      name: 'getPayment',
      method: 'GET',
      paths: ['/v1/payments/{id}'],
      handler: 'get-payment',
      summary: "Read one of the client's payments",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'paymentSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'listPayments',
      method: 'GET',
      paths: ['/v1/payments'],
      handler: 'list-payments',
      summary: "List the client's payments, a page at a time",
      schemas: { body: null, query: 'paymentListQuerySchema', response: 'paymentListSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      // A page of payments, then their details in one BatchGetItem (with the counter's shards on page 1
      // of a new walk: shared/data/payment-details.ts).
      tableActions: [...LIST_ACTIONS, 'BatchGetItem'],
    },
    {
      name: 'getPaymentTotals',
      method: 'GET',
      paths: ['/v1/payment-totals'],
      handler: 'get-payment-totals',
      summary: "The client's payments received and sent per Bogotá day of a period, by status, with their sum",
      schemas: { body: null, query: 'paymentTotalsQuerySchema', response: 'paymentTotalsSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      // One Query of the period's daily totals, the tenant's or the merchant's, whatever its payments.
      tableActions: ['Query'],
    },
    {
      name: 'createRefund',
      method: 'POST',
      paths: ['/v1/payments/{id}/refunds'],
      handler: 'create-refund',
      summary: "Refund one of the client's INBOUND payments to its payer, in full or in part",
      schemas: { body: 'createRefundRequestSchema', query: 'emptyQuerySchema', response: 'refundSchema' },
      problems: [
        'PAYMENT_NOT_REFUNDABLE',
        'REFUND_EXCEEDS_REMAINING',
        'REFUND_WINDOW_EXPIRED',
        // A conflict with the merchant's balance here (409); a payment answers it 400.
        { code: 'INSUFFICIENT_FUNDS', kind: 'conflict' },
        // The merchant deactivated (a customer INACTIVE) sends no money out: 409 here, 400 to a payment.
        { code: 'CUSTOMER_INACTIVE', kind: 'conflict' },
        { code: 'ACCOUNT_INACTIVE', kind: 'conflict' },
        'IDEMPOTENCY_KEY_REQUIRED',
      ],
      scopes: [SCOPES.paymentsWrite],
      // Reads the key's refund and the payment; the transaction puts the refund, checks the merchant's
      // customer and account ACTIVE, raises the payment's refunded_amount, holds the amount (the
      // account's update and its movement), puts the event and updates the counters; the refund's
      // settlement is then scheduled on the settlement queue.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      writesMoney: true,
      queues: ['settlement'],
    },
    {
      name: 'getRefund',
      method: 'GET',
      paths: ['/v1/refunds/{id}'],
      handler: 'get-refund',
      summary: "Read one of the client's refunds",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'refundSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'listRefunds',
      method: 'GET',
      paths: ['/v1/refunds'],
      handler: 'list-refunds',
      summary: "List the client's refunds, a page at a time",
      schemas: { body: null, query: 'refundListQuerySchema', response: 'refundListSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'getSettlementReconciliation',
      method: 'GET',
      paths: ['/v1/settlement-reconciliations/{date}'],
      handler: 'get-settlement-reconciliation',
      summary: "A Bogotá day's reconciliation with the sponsor bank, for the client's accounts",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'settlementReconciliationSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      // Reads the day's file record and the client's result, at once.
      tableActions: ['GetItem'],
    },
    {
      name: 'listSettlementBreaks',
      method: 'GET',
      paths: ['/v1/settlement-reconciliations/{date}/breaks'],
      handler: 'list-settlement-breaks',
      summary: "The breaks of a day's reconciliation on the client's accounts, a page at a time",
      schemas: { body: null, query: 'settlementBreakListQuerySchema', response: 'settlementBreakListSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'createRecipient',
      method: 'POST',
      paths: ['/v1/recipients'],
      handler: 'create-recipient',
      summary: 'Save the payee of a resolution as a recipient',
      schemas: { body: 'createRecipientRequestSchema', query: 'emptyQuerySchema', response: 'recipientSchema' },
      problems: ['NOT_FOUND', 'FORBIDDEN'],
      // A recipient is who the client's payments go to: payments data, under the payments scopes.
      scopes: [SCOPES.paymentsWrite],
      // Reads the resolution; the transaction puts the recipient and updates its lists' counters.
      tableActions: IDEMPOTENCY_ACTIONS,
    },
    {
      name: 'listRecipients',
      method: 'GET',
      paths: ['/v1/recipients'],
      handler: 'list-recipients',
      summary: "List the client's recipients, a page at a time",
      schemas: { body: null, query: 'recipientListQuerySchema', response: 'recipientListSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'getRecipient',
      method: 'GET',
      paths: ['/v1/recipients/{id}'],
      handler: 'get-recipient',
      summary: "Read one of the client's recipients",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'recipientSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'deleteRecipient',
      method: 'DELETE',
      paths: ['/v1/recipients/{id}'],
      handler: 'delete-recipient',
      summary: 'Delete a recipient',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'recipientSchema' },
      problems: [],
      scopes: [SCOPES.paymentsWrite],
      // Reads the recipient; the transaction deletes it, updates its lists' counters and puts its audit event.
      tableActions: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
    },
    {
      name: 'getInboundApproval',
      method: 'GET',
      paths: ['/v1/settings/inbound-approval'],
      handler: 'get-inbound-approval',
      summary: "Read the client's inbound approval settings, without the secret",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'inboundApprovalSchema' },
      problems: ['NOT_FOUND'],
      scopes: [SCOPES.paymentsRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'putInboundApproval',
      method: 'PUT',
      paths: ['/v1/settings/inbound-approval'],
      handler: 'put-inbound-approval',
      // The settings decide which inbound payments are credited: a payments writer's to change.
      summary: "Replace the client's inbound approval settings; the first PUT shows the signing secret",
      schemas: {
        body: 'putInboundApprovalRequestSchema',
        query: 'emptyQuerySchema',
        response: 'inboundApprovalPutSchema',
      },
      problems: [],
      scopes: [SCOPES.paymentsWrite],
      // Reads the settings and replaces their fields in one transaction with the audit event (made again
      // on what it reads if another request wrote between), or puts the first (only where none is).
      tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
      // The first PUT seals the secret it makes.
      sealing: ['seal'],
    },
    {
      name: 'rotateInboundApprovalSecret',
      method: 'POST',
      paths: ['/v1/settings/inbound-approval/rotate-secret'],
      handler: 'rotate-inbound-approval-secret',
      summary: 'Rotate the inbound approval signing secret; the previous one signs 24 hours more',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'inboundApprovalWithSecretSchema' },
      problems: ['NOT_FOUND', 'CONCURRENT_UPDATE'],
      scopes: [SCOPES.paymentsWrite],
      // Reads the settings and updates their secrets at the version read.
      tableActions: IDEMPOTENCY_ACTIONS,
      // Opens the secrets to keep the previous one, seals them with the new one.
      sealing: ['open', 'seal'],
    },
  ],
};
