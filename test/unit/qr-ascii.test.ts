/** Names and cities become printable ASCII, cut to the tag's maximum. */
import { hasNonAscii, merchantCityForQr, merchantNameForQr, toQrText } from '../../shared/qr/ascii';

describe('toQrText', () => {
  test.each([
    ['Bogotá D.C.', 15, 'Bogota D.C.'],
    ['Ñandú Ñoño', 25, 'Nandu Nono'],
    ['Pingüino Cigüeña', 25, 'Pinguino Ciguena'],
    ['ÁÉÍÓÚ áéíóú', 25, 'AEIOU aeiou'],
    ['Straße Øresund Æble', 25, 'Strasse Oresund AEble'],
    ['Café «El Niño» – Nº 1', 25, 'Cafe "El Nino" - No 1'],
    ['Don Pepe’s', 25, "Don Pepe's"],
    ['Tienda 😀 Feliz', 25, 'Tienda Feliz'],
    ['  many   \t spaces\n', 25, 'many spaces'],
    ['\u00a0no-break\u00a0space', 25, 'no-break space'],
    ['東京 Sushi', 25, 'Sushi'],
    ['東京', 25, ''],
    // A decomposed accent (e + combining acute) is stripped like a precomposed one.
    ['Cafe\u0301', 25, 'Cafe'],
  ])('%j (max %d) is %j', (input, max, expected) => {
    expect(toQrText(input, max)).toBe(expected);
  });

  test('cuts to the maximum and leaves no trailing space at the cut', () => {
    expect(merchantNameForQr('Panadería La Esperanza del Norte')).toBe('Panaderia La Esperanza de');
    expect(merchantNameForQr('Distribuidora Internacional de Alimentos')).toBe('Distribuidora Internacion');
    expect(merchantNameForQr('Abcdefghijklmnopqrstuvwx yz')).toBe('Abcdefghijklmnopqrstuvwx');
    expect(merchantCityForQr('San José del Guaviare')).toBe('San Jose del Gu');
    expect(merchantCityForQr('Cartagena de Indias')).toBe('Cartagena de In');
  });

  test('the result is always printable ASCII within the maximum', () => {
    const samples = ['\u0000\u0007control', 'ǅungla', '𝔉𝔯𝔞𝔨𝔱𝔲𝔯', 'ﬁn', '\u200bzero\u200bwidth'];
    for (const sample of samples) {
      const out = toQrText(sample, 10);
      expect(out).toMatch(/^[\x20-\x7E]*$/);
      expect(out.length).toBeLessThanOrEqual(10);
    }
  });
});

describe('hasNonAscii', () => {
  test.each([
    ['Cafe Central', false],
    ['Bogotá', true],
    ['tab\t', true],
    ['😀', true],
    ['', false],
  ])('%j -> %s', (input, expected) => {
    expect(hasNonAscii(input)).toBe(expected);
  });
});
