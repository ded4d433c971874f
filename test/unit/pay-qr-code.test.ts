/** What paying a QR code charges (the code's amount or the payer's, and the tip rules), in integer cents. */
import { AppError } from '../../shared/domain/errors';
import { qrCharge } from '../../shared/domain/pay-qr-code';
import type { StoredQrCode } from '../../shared/domain/qrcodes';
import type { PayQrCodeRequest } from '../../shared/schemas/payments';

type Code = Pick<StoredQrCode, 'amount' | 'tip'>;

const cop = (value: string) => ({ value, currency: 'COP' as const });
const withAmount = (value: string, tip?: StoredQrCode['tip']): Code => ({
  amount: cop(value),
  ...(tip ? { tip } : {}),
});
const noAmount = (tip?: StoredQrCode['tip']): Code => (tip ? { tip } : {});

describe('qrCharge', () => {
  test.each<[string, Code, PayQrCodeRequest, number, number]>([
    ['a dynamic or hybrid code: its amount', withAmount('119000.00'), {}, 119_000_00, 0],
    [
      'its amount already includes a FIXED tip (the amount includes tip, INC and VAT)',
      withAmount('119000.00', { tip_type: 'FIXED', tip_value: '5000.00' }),
      {},
      119_000_00,
      0,
    ],
    [
      'and a PERCENTAGE tip',
      withAmount('119000.00', { tip_type: 'PERCENTAGE', tip_percentage: '10.00000' }),
      {},
      119_000_00,
      0,
    ],
    [
      'a REQUEST tip is the payer’s, added to the amount',
      withAmount('119000.00', { tip_type: 'REQUEST' }),
      { tip: cop('2500.50') },
      121_500_50,
      2_500_50,
    ],
    ['which the payer may leave out', withAmount('10.00', { tip_type: 'REQUEST' }), {}, 10_00, 0],
    ['a static code: what the payer types', noAmount(), { amount: cop('35.10') }, 35_10, 0],
    ['plus its FIXED tip', noAmount({ tip_type: 'FIXED', tip_value: '5.00' }), { amount: cop('35.10') }, 40_10, 5_00],
    [
      'plus its PERCENTAGE tip, rounded half up to the cent',
      noAmount({ tip_type: 'PERCENTAGE', tip_percentage: '10.00000' }),
      { amount: cop('100.05') },
      110_06,
      10_01,
    ],
    [
      'a rate of five decimals',
      noAmount({ tip_type: 'PERCENTAGE', tip_percentage: '0.00001' }),
      { amount: cop('9999999999999.99') },
      999_999_999_999_999 + 100_000_000,
      100_000_000,
    ],
    [
      'at the largest amounts, in integers only',
      noAmount({ tip_type: 'PERCENTAGE', tip_percentage: '100.00000' }),
      { amount: cop('4503599627370.49') },
      900_719_925_474_098,
      450_359_962_737_049,
    ],
  ])('%s', (_what, code, request, amountCents, tipCents) => {
    expect(qrCharge(code, request)).toEqual({ amountCents, tipCents });
  });

  const errorsOf = (code: Code, request: PayQrCodeRequest) => {
    try {
      qrCharge(code, request);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return [(error as AppError).code, (error as AppError).extensions['errors']];
    }
    throw new Error('expected a refusal');
  };

  test.each<[string, Code, PayQrCodeRequest, { field: string; message: string }[]]>([
    [
      'an amount for a code that has one',
      withAmount('10.00'),
      { amount: cop('10.00') },
      [{ field: 'amount', message: 'must not be sent: the code carries its amount' }],
    ],
    [
      'no amount for a static code',
      noAmount(),
      {},
      [{ field: 'amount', message: 'is required: the code carries no amount' }],
    ],
    [
      'a tip for a code that asks for none, with the missing amount',
      noAmount(),
      { tip: cop('1.00') },
      [
        { field: 'amount', message: 'is required: the code carries no amount' },
        { field: 'tip', message: 'must not be sent: the code asks for no tip' },
      ],
    ],
    [
      'a tip for a code that sets its own',
      withAmount('10.00', { tip_type: 'FIXED', tip_value: '1.00' }),
      { tip: cop('1.00') },
      [{ field: 'tip', message: 'must not be sent: the code sets its tip' }],
    ],
    [
      'a zero amount',
      noAmount(),
      { amount: cop('0.00') },
      [{ field: 'amount.value', message: 'must be greater than 0.00' }],
    ],
    [
      'a zero tip',
      withAmount('10.00', { tip_type: 'REQUEST' }),
      { tip: cop('0.00') },
      [{ field: 'tip.value', message: 'must be greater than 0.00' }],
    ],
  ])('400 for %s', (_what, code, request, errors) => {
    expect(errorsOf(code, request)).toEqual(['VALIDATION_FAILED', errors]);
  });
});
