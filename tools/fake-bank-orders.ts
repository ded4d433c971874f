/**
 * What the fake sponsor bank (tools/fake-bank.ts) checks of the transfer orders it receives, as a strict
 * connector would: each against the schema our API publishes for them (the `transfer.requested` entry
 * of `GET /network/openapi.json`, read from the API as an integrator would, not from our code), and a
 * return (`"kind": "RETURN"`) against the credits the bank itself sent: routed to the original
 * credit's debtor, within that credit's amount, or refused when the bank sent no such credit.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped when imported from an ES module.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const DOCUMENT_ID = 'network-openapi.json';

/** The order schema as the API publishes it: read once, on the first order. */
export class PublishedOrderSchema {
  private validate: Promise<ValidateFunction> | undefined;

  constructor(private readonly apiUrl: () => string) {}

  private async compile(): Promise<ValidateFunction> {
    const answer = await fetch(`${this.apiUrl()}/network/openapi.json`);
    if (answer.status !== 200) throw new Error(`GET /network/openapi.json answered ${answer.status}`);
    const document = (await answer.json()) as Json;
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(document, DOCUMENT_ID);
    // The order is the body of the `transfer.requested` webhook entry: whatever it refers to.
    return ajv.compile({
      $ref: `${DOCUMENT_ID}#/webhooks/transfer.requested/post/requestBody/content/application~1json/schema`,
    });
  }

  /** The schema's complaints about `order`: none when it is valid. */
  async problems(order: unknown): Promise<string[]> {
    this.validate ??= this.compile();
    let validate: ValidateFunction;
    try {
      validate = await this.validate;
    } catch (error) {
      // Read again at the next order: the API may not have been up yet.
      this.validate = undefined;
      throw error;
    }
    if (validate(order)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
  }
}

/** A credit the bank sent our API and that it accepted: money moved to one of our merchants. */
export interface SentCredit {
  readonly end_to_end_id: string;
  readonly amount: { readonly value: string; readonly currency: string };
  readonly debtor: Json;
}

/** Where the network took a return: back to the original credit's debtor. */
export interface RoutedReturn {
  readonly transfer_id: string;
  readonly end_to_end_id: string;
  readonly original: SentCredit;
  /** Whom the money went back to: the original credit's debtor, as its bank sent it. */
  readonly to: Json;
  readonly amount: { readonly value: string; readonly currency: string };
}

const cents = (value: string): number => Math.round(Number(value) * 100);

/** The credits the bank sent and the returns it routed back, by end_to_end_id. */
export class CreditBook {
  private readonly credits = new Map<string, SentCredit>();
  private readonly returns = new Map<string, RoutedReturn>();

  /** Keeps a credit the API accepted (a copy sent again changes nothing). */
  accepted(credit: SentCredit): void {
    if (!this.credits.has(credit.end_to_end_id)) this.credits.set(credit.end_to_end_id, credit);
  }

  /**
   * Routes the return `order` to the original credit's debtor: the route, or why it cannot be (a
   * credit the bank never sent, or more returned than it credited). The same return sent again
   * (its end_to_end_id) is the same route.
   */
  route(order: Json): RoutedReturn | { readonly refused: 'ORIGINAL_NOT_FOUND' | 'RETURN_EXCEEDS_ORIGINAL' } {
    const endToEndId = String(order['end_to_end_id']);
    const known = this.returns.get(endToEndId);
    if (known) return known;
    const original = this.credits.get(String(order['original_end_to_end_id']));
    if (!original) return { refused: 'ORIGINAL_NOT_FOUND' };
    const returned = [...this.returns.values()]
      .filter((routed) => routed.original === original)
      .reduce((sum, routed) => sum + cents(routed.amount.value), 0);
    if (returned + cents(String(order['amount']?.value)) > cents(original.amount.value)) {
      return { refused: 'RETURN_EXCEEDS_ORIGINAL' };
    }
    const routed: RoutedReturn = {
      transfer_id: String(order['transfer_id']),
      end_to_end_id: endToEndId,
      original,
      to: original.debtor,
      amount: order['amount'],
    };
    this.returns.set(endToEndId, routed);
    return routed;
  }

  /** The return routed for transfer `transferId` (a refund of ours), if any. */
  returnOf(transferId: string): RoutedReturn | undefined {
    return [...this.returns.values()].find((routed) => routed.transfer_id === transferId);
  }
}
