/**
 * The route family "QR codes": a merchant's EMVCo payment QR codes: created, read, listed, deleted, decoded. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, ANSWER_RECORD_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const qrCodeRoutes: RouteFamily = {
  name: 'qr-codes',
  title: 'QR codes',
  routes: [
    {
      name: 'createQrCode',
      method: 'POST',
      paths: ['/v1/qrcodes'],
      handler: 'create-qr-code',
      summary: "Create a static or dynamic payment QR code for a merchant's key",
      schemas: { body: 'createQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'qrCodeWithImageSchema' },
      problems: [
        'NOT_FOUND',
        'FORBIDDEN',
        'CUSTOMER_INACTIVE',
        'ACCOUNT_INACTIVE',
        'KEY_STATUS_CONFLICT',
        'QR_CODE_REFERENCE_TAKEN',
      ],
      scopes: [SCOPES.qrCodesWrite],
      // Reads the customer and the key; the transaction puts the code and its reference guard,
      // checks the customer, the key and its account, and updates the counters. Signs with the key.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      secrets: ['qrSigning'],
    },
    {
      name: 'getQrCode',
      method: 'GET',
      paths: ['/v1/qrcodes/{id}'],
      handler: 'get-qr-code',
      summary: "Read one of the client's QR codes, with its image",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'qrCodeWithImageSchema' },
      problems: [],
      scopes: [SCOPES.qrCodesRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'listQrCodes',
      method: 'GET',
      paths: ['/v1/qrcodes'],
      handler: 'list-qr-codes',
      summary: "List the client's QR codes, a page at a time, without images",
      schemas: { body: null, query: 'qrCodeListQuerySchema', response: 'qrCodeListSchema' },
      problems: [],
      scopes: [SCOPES.qrCodesRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'deleteQrCode',
      method: 'DELETE',
      paths: ['/v1/qrcodes/{id}'],
      handler: 'delete-qr-code',
      summary: 'Delete a QR code: it can no longer be paid',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'qrCodeSchema' },
      problems: ['QR_CODE_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
      scopes: [SCOPES.qrCodesWrite],
      // Reads the code; the transaction changes its status and puts its audit event (with its counters).
      tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    },
    {
      name: 'decodeQrCode',
      method: 'POST',
      paths: ['/v1/qrcodes/decode'],
      handler: 'decode-qr-code',
      summary: 'Decode any EMVCo merchant-presented QR payload',
      schemas: { body: 'decodeQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'decodedQrCodeSchema' },
      problems: [],
      // Decoding changes nothing: a read scope. It verifies signatures with the signing keys; the
      // table actions are only those of an Idempotency-Key a client may send with any POST.
      scopes: [SCOPES.qrCodesRead],
      tableActions: ANSWER_RECORD_ACTIONS,
      secrets: ['qrSigning'],
    },
  ],
};
