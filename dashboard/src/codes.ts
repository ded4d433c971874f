/** The API's codes with what they mean, for a person: every code the pages show is one of these or says itself. */
const MEANINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  channel: {
    IM: 'printed or entered by hand',
    POS: 'point of sale',
    APP: 'mobile app',
    ECOMM: 'online shop',
    MPOS: 'mobile point of sale',
    CB: 'banking correspondent',
    OFC: 'bank office',
    ATM: 'cash machine',
  },
  purpose: {
    '00': 'purchase',
    '02': 'cancellation',
    '03': 'transfer',
    '04': 'withdrawal',
    '05': 'collection',
    '06': 'top-up',
    '07': 'deposit',
  },
  direction: { INBOUND: 'received', OUTBOUND: 'sent' },
  qrType: { STATIC: 'reusable', DYNAMIC: 'one sale, paid once' },
  approval: {
    NOT_REQUIRED: 'no approval asked: the client has none set up',
    ACCEPTED: "accepted by the client's approval callback",
    REFUSED: "refused by the client's approval callback",
    AUTO_APPROVED: 'accepted without an answer of the callback (its setting says so)',
    AUTO_REJECTED: 'refused without an answer of the callback (its setting says so)',
  },
  rejection: {
    PAYEE_INACTIVE: "the payee's merchant or key is not active",
    NETWORK_REJECTED: 'the Bre-B network refused it',
    APPROVAL_REFUSED: "the client's approval callback refused it",
    APPROVAL_FAILED: 'the approval callback did not answer in time or in form',
    QR_CODE_NOT_PAYABLE: 'the QR code could no longer be paid',
  },
  deliveryMode: { RETRY: 'retried with backoff until it succeeds', ONCE: 'one attempt' },
  keyType: {
    PHONE: 'mobile phone',
    ID: 'identification number',
    EMAIL: 'e-mail',
    ALPHA: 'alias (@...)',
    BCODE: 'merchant code',
  },
  taxType: { FIXED: 'fixed amount', PERCENTAGE: 'percentage', WALLET: "entered in the payer's wallet" },
};

export type CodeKind = keyof typeof MEANINGS & string;

/** What a code means, or nothing when it is not one the page knows. */
export const meaningOf = (kind: string, code: string): string | undefined => MEANINGS[kind]?.[code];

/** "IM (printed or entered by hand)": a code and its meaning, as a choice or a value shows it. */
export function withMeaning(kind: string, code: string | undefined): string {
  if (!code) return '';
  const meaning = meaningOf(kind, code);
  return meaning ? `${code} (${meaning})` : code;
}
