/** The sections of the navigation, in its order: on their own, so that a test reads them without the page. */
export const SECTIONS = [
  'overview',
  'qrcodes',
  'payments',
  'refunds',
  'reconciliation',
  'merchants',
  'keys',
  'webhooks',
  'activity',
] as const;
