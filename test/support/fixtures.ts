/** Request bodies shared by the end-to-end tests. */
export const SANDBOX_NIT = '900123456';

export function linkMerchantBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    type: 'BUSINESS',
    business_name: 'Tienda La Esperanza SAS',
    email: 'pagos@esperanza.co',
    mobile_phone_number: '3001234567',
    identification_type: 'NIT',
    identification_number: SANDBOX_NIT,
    address: {
      line_1: 'Calle 10 # 5-20',
      city: 'Bogotá',
      state: 'Cundinamarca',
      post_code: '110111',
      country: 'CO',
    },
    merchant_category_code: '5411',
    ...overrides,
  };
}

/** A NIT of nine digits no other test uses, approved at the sponsor bank through the sandbox route. */
let nitCounter = 0;
export function uniqueNit(): string {
  nitCounter += 1;
  return `8${String(process.pid % 10000).padStart(4, '0')}${String(nitCounter).padStart(4, '0')}`;
}
