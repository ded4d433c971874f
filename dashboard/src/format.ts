/**
 * How the dashboard writes amounts and times: pesos as Colombia writes them (es-CO: "$ 15.000,00"),
 * times in Bogotá's zone, where the merchants are.
 */
const pesos = new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: 2 });
const times = new Intl.DateTimeFormat('es-CO', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Bogota' });

/**
 * An API amount ("15000.00", always COP) written for a person, from its digits: the API's amounts
 * reach 15 digits and the cents, more than a double holds, so Number() would round the largest.
 * Intl.NumberFormat formats a decimal string exactly (Intl.NumberFormat v3: every browser the build
 * targets, and Node).
 */
export function formatCop(value: string): string {
  return pesos.format(value as Intl.StringNumericLiteral);
}

export function formatTime(iso: string | undefined): string {
  return iso ? times.format(new Date(iso)) : '';
}

/** The reference the merchant chose, out of the network's CO.COM.<ACQ>.TRXIDP<reference> form. */
export function shortReference(reference: string): string {
  const marker = reference.lastIndexOf('TRXIDP');
  return marker >= 0 ? reference.slice(marker + 'TRXIDP'.length) : reference;
}
