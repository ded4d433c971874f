/**
 * The reports' CSV (shared/domain/csv.ts): RFC 4180 quoting, formulas kept as text, CRLF records, and
 * columns that follow a record's JSON schema (nested fields joined with `_`, money value first), read back by csv-parse;
 * and the file Excel opens in Spanish (EXCEL_ES).
 */
import { parse } from 'csv-parse/sync';
import { columnsOf, csvField, csvHeader, csvRows, EXCEL_ES } from '../../shared/domain/csv';
import { movementSchema } from '../../shared/schemas/ledger';
import { paymentSchema } from '../../shared/schemas/payments';
import { REPORT_KINDS } from '../../shared/domain/report-types';

test('a field is quoted, its quotes doubled, only when it holds a quote, a comma or a line break', () => {
  expect(csvField('Factura 12')).toBe('Factura 12');
  expect(csvField('')).toBe('');
  expect(csvField('-120.50')).toBe('-120.50');
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('dice "hola"')).toBe('"dice ""hola"""');
  expect(csvField('línea 1\nlínea 2')).toBe('"línea 1\nlínea 2"');
  expect(csvField('a\rb')).toBe('"a\rb"');
});

test('a field a spreadsheet would run as a formula is text: an apostrophe first, inside quotes', () => {
  for (const formula of ['=HYPERLINK("http://x.example","pay")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
    const field = csvField(formula);
    expect(field).toBe(`"'${formula.replaceAll('"', '""')}"`);
    // Read back by an independent parser: the value, behind the apostrophe that makes it text.
    expect(parse(`${field}\r\n`)).toEqual([[`'${formula}`]]);
  }
  // The API's numbers, negative ones too, stay numbers; a sign or @ later in a field is no formula.
  expect(csvField('-120.50')).toBe('-120.50');
  expect(csvField('-3')).toBe('-3');
  expect(csvField('a=b')).toBe('a=b');
  expect(csvField('ana@example.com')).toBe('ana@example.com');
  expect(csvField('-')).toBe(`"'-"`);
});

test("columns follow the record's schema: nested fields joined with _, money value first", () => {
  expect(columnsOf(movementSchema).map((column) => column.name)).toEqual([
    'id',
    'kind',
    'amount_value',
    'amount_currency',
    'payment_id',
    'refund_id',
    'created_at',
  ]);
  const payment = columnsOf(paymentSchema).map((column) => column.name);
  expect(payment.slice(0, 7)).toEqual([
    'id',
    'status',
    'direction',
    'customer_id',
    'account_id',
    'amount_value',
    'amount_currency',
  ]);
  expect(payment).toContain('counterparty_owner_identification_number');
  expect(payment).toContain('counterparty_key_key_value');
  expect(new Set(payment).size).toBe(payment.length);
});

test('rows end in CRLF, missing fields are empty, and an independent parser reads back every value', () => {
  const columns = columnsOf(movementSchema);
  const records = [
    { id: 'a', kind: 'PAYMENT', amount: { currency: 'COP', value: '-1.00' }, payment_id: 'p, "1"', created_at: 't1' },
    { id: 'b', kind: 'OPENING_BALANCE', amount: { currency: 'COP', value: '5.00' }, created_at: 't2\r\nx' },
  ];
  const text = csvHeader(columns) + csvRows(columns, records);
  expect(text.startsWith('id,kind,amount_value,amount_currency,payment_id,refund_id,created_at\r\n')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  expect(parse(text, { columns: true })).toEqual([
    {
      id: 'a',
      kind: 'PAYMENT',
      amount_value: '-1.00',
      amount_currency: 'COP',
      payment_id: 'p, "1"',
      refund_id: '',
      created_at: 't1',
    },
    {
      id: 'b',
      kind: 'OPENING_BALANCE',
      amount_value: '5.00',
      amount_currency: 'COP',
      payment_id: '',
      refund_id: '',
      created_at: 't2\r\nx',
    },
  ]);
});

describe("a person's numbers in a report (docs/privacy.md)", () => {
  const columns = columnsOf(paymentSchema);
  const personal = REPORT_KINDS.payments.personal;
  const payment = {
    id: 'p-1',
    counterparty: {
      owner: { identification_type: 'CC', identification_number: '1020304050', first_name: 'Ana' },
      participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      account: { account_number: '4001002003', account_type: 'SAVINGS' },
    },
  };
  const row = (masked?: ReadonlySet<string>) => {
    const [header, line] = [csvHeader(columns), csvRows(columns, [payment], masked)].map((l) => l.trim().split(','));
    return Object.fromEntries(header!.map((name, i) => [name, line![i]]));
  };

  test("are the counterparty's document and account numbers, not its bank's NIT", () => {
    expect([...personal].sort()).toEqual([
      'counterparty_account_account_number',
      'counterparty_owner_identification_number',
    ]);
    expect(REPORT_KINDS.refunds.personal.size + REPORT_KINDS.movements.personal.size).toBe(0);
  });

  test('masked to their last four when asked, whole otherwise', () => {
    expect(row(personal)).toMatchObject({
      counterparty_owner_identification_number: '****4050',
      counterparty_account_account_number: '****2003',
      counterparty_participant_identification_number: '860000002',
      counterparty_owner_first_name: 'Ana',
    });
    expect(row()).toMatchObject({
      counterparty_owner_identification_number: '1020304050',
      counterparty_account_account_number: '4001002003',
    });
  });
});

describe('for Excel in Spanish (EXCEL_ES)', () => {
  const columns = columnsOf(movementSchema);
  const records = [
    {
      id: 'a',
      kind: 'PAYMENT',
      amount: { value: '-1234.50', currency: 'COP' },
      payment_id: 'p;1',
      created_at: '2026-03-14T04:30:00.000Z',
    },
    {
      id: 'b',
      kind: 'OPENING_BALANCE',
      amount: { value: '5.00', currency: 'COP' },
      created_at: '2026-03-14T15:00:00Z',
    },
  ];
  const text = csvHeader(columns, EXCEL_ES) + csvRows(columns, records, undefined, EXCEL_ES);

  test('a byte order mark, then semicolons; a field quoted when it holds one', () => {
    expect(text.startsWith('\uFEFFid;kind;amount_value;amount_currency;payment_id;refund_id;created_at\r\n')).toBe(
      true,
    );
    expect(text).toContain(';"p;1";');
  });

  test("money with a decimal comma, a negative amount still a number; instants on Bogotá's clock", () => {
    expect(parse(text, { bom: true, delimiter: ';', columns: true })).toEqual([
      {
        id: 'a',
        kind: 'PAYMENT',
        amount_value: '-1234,50',
        amount_currency: 'COP',
        payment_id: 'p;1',
        refund_id: '',
        // 04:30 UTC is the evening before in Bogotá (UTC-5).
        created_at: '2026-03-13 23:30:00',
      },
      {
        id: 'b',
        kind: 'OPENING_BALANCE',
        amount_value: '5,00',
        amount_currency: 'COP',
        payment_id: '',
        refund_id: '',
        created_at: '2026-03-14 10:00:00',
      },
    ]);
  });

  test('a formula is still text; a comma needs no quotes', () => {
    expect(csvField('=1+1', EXCEL_ES)).toBe(`"'=1+1"`);
    expect(csvField('-3,5', EXCEL_ES)).toBe('-3,5');
    expect(csvField('-3.5', EXCEL_ES)).toBe(`"'-3.5"`);
    expect(csvField('a,b', EXCEL_ES)).toBe('a,b');
  });
});
