/**
 * dashboard/src/field-messages.ts: what the API really answers a person's webhook form (its URL
 * checks, its schema's length) is said in Spanish and in English by the catalogs, the host or length
 * it names kept; a message it does not know is shown as the API words it.
 */
import { en, type MessageKey } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { setLanguage } from '../../dashboard/src/i18n';
import { plainFieldMessage } from '../../dashboard/src/field-messages';
import { AppError } from '../../shared/domain/errors';
import { checkWebhookUrl, type HostResolver } from '../../shared/domain/webhook-urls';
import { toFieldError } from '../../shared/http/validation';
import { createWebhookRequest } from '../../shared/schemas/generated/webhooks';

/** A resolver that answers these addresses, or fails as a timed-out lookup does. */
const resolving = (addresses: readonly string[] | 'fails'): HostResolver => ({
  resolve: async () => {
    if (addresses === 'fails') throw new Error('queryA ETIMEOUT');
    return addresses;
  },
});

/** The message the API answers for the URL, on a deployed stage or the local one. */
async function refusalOf(url: string, addresses: readonly string[] | 'fails', local = false): Promise<string> {
  try {
    await checkWebhookUrl(url, { localReceivers: local }, resolving(addresses));
  } catch (error) {
    if (error instanceof AppError) return error.extensions.errors![0]!.message;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

const PUBLIC = ['93.184.215.14'];
const CASES: [string, () => Promise<string>, MessageKey, Record<string, string>][] = [
  ['too long', () => refusalOf(`https://tienda.co/${'a'.repeat(2048)}`, PUBLIC), 'field.tooLong', { count: '2048' }],
  ['not a URL', () => refusalOf('tienda.co/breb', PUBLIC), 'field.absoluteUrl', {}],
  ['http on a deployed stage', () => refusalOf('http://tienda.co/breb', PUBLIC), 'field.httpsOnly', {}],
  [
    'http elsewhere than here, locally',
    () => refusalOf('http://tienda.co/breb', PUBLIC, true),
    'field.httpsOnlyLocal',
    {},
  ],
  ['credentials', () => refusalOf('https://ana:clave@tienda.co/breb', PUBLIC), 'field.noCredentials', {}],
  [
    'a lookup that failed',
    () => refusalOf('https://tienda.co/breb', 'fails'),
    'field.hostUnresolvedNow',
    { host: 'tienda.co' },
  ],
  ['a name with no address', () => refusalOf('https://tienda.co/breb', []), 'field.hostUnknown', { host: 'tienda.co' }],
  ['a private address', () => refusalOf('https://intranet.tienda.co/breb', ['10.0.0.8']), 'field.notPublic', {}],
  [
    'localhost elsewhere, locally',
    () => refusalOf('http://localhost:8080/breb', ['10.0.0.8'], true),
    'field.notThisMachine',
    {},
  ],
  ['another port', () => refusalOf('https://tienda.co:8443/breb', PUBLIC), 'field.port443', {}],
  [
    'a description too long',
    async () => {
      const body = { url: 'https://tienda.co/breb', events: ['payment.settled'], description: 'x'.repeat(201) };
      if (createWebhookRequest(body)) throw new Error('A description of 201 characters was accepted');
      return toFieldError(createWebhookRequest.errors![0]!).message;
    },
    'field.tooLong',
    { count: '200' },
  ],
];

const said = (catalog: Record<MessageKey, string>, key: MessageKey, values: Record<string, string>) =>
  catalog[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

afterAll(() => setLanguage('en'));

describe.each([
  ['es', es],
  ['en', en],
] as const)('in %s', (language, catalog) => {
  it.each(CASES)('%s', async (_, refusal, key, values) => {
    setLanguage(language);
    const message = await refusal();
    expect(plainFieldMessage(message)).toBe(said(catalog, key, values));
  });
});

it('a message it does not know is shown as the API words it, as a sentence', () => {
  expect(plainFieldMessage('must be one of ACTIVE, INACTIVE')).toBe('Must be one of ACTIVE, INACTIVE.');
});
