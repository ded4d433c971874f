/**
 * What a person may do, from the scopes their token carries: the page offers only that (a viewer
 * sees no button the API would refuse). The API decides either way; this is what the page shows.
 */
const SCOPE = {
  customersWrite: 'breb/customers.write',
  accountsWrite: 'breb/accounts.write',
  keysWrite: 'breb/keys.write',
  qrCodesWrite: 'breb/qrcodes.write',
  paymentsWrite: 'breb/payments.write',
  webhooksWrite: 'breb/webhooks.write',
  reportsWrite: 'breb/reports.write',
  paymentsRead: 'breb/payments.read',
} as const;

/** Each thing a page offers, and the scopes the API asks for it. */
const NEEDS = {
  linkMerchant: [SCOPE.customersWrite],
  linkAccount: [SCOPE.accountsWrite],
  registerKey: [SCOPE.keysWrite],
  changeKey: [SCOPE.keysWrite],
  createQrCode: [SCOPE.qrCodesWrite],
  deleteQrCode: [SCOPE.qrCodesWrite],
  // The sandbox's route asks for no scope of its own yet: a shopper's payment is offered to whoever
  // may create codes and payments, never to a viewer.
  payInSandbox: [SCOPE.qrCodesWrite, SCOPE.paymentsWrite],
  refund: [SCOPE.paymentsWrite],
  addWebhook: [SCOPE.webhooksWrite],
  changeWebhook: [SCOPE.webhooksWrite],
  downloadReport: [SCOPE.reportsWrite],
  // A payer's document and account numbers whole, on a payment's page (docs/privacy.md, "Masking").
  revealNumbers: [SCOPE.paymentsRead],
} as const satisfies Record<string, readonly string[]>;

export type Action = keyof typeof NEEDS;

export const may = (scopes: readonly string[], action: Action): boolean =>
  NEEDS[action].every((scope) => scopes.includes(scope));

/** Whether the token carries any write scope: a viewer's carries none. */
export const canWriteAnything = (scopes: readonly string[]): boolean => scopes.some((s) => s.endsWith('.write'));
