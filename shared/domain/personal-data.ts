/**
 * A data subject's request under Colombia's Ley 1581 de 2012 (docs/privacy.md): every record that
 * names a person by their identification (type and number), exported whole; erased or masked where no
 * law makes us keep it; kept, with the reason, where one does. An operator's command runs it
 * (tools/privacy.ts), audited in the trail of every client whose records name the person.
 */
import { isMasked, maskNumber } from './masking';

export interface DataSubject {
  readonly identification_type: string;
  readonly identification_number: string;
}

/** One stored item naming the subject, as the store found it. */
export interface FoundItem {
  readonly pk: string;
  readonly sk: string;
  /** The item's kind (its `entity`): a payment's detail is found as its payment, whole. */
  readonly entity: string;
  /** The record without the table's own attributes. */
  readonly record: Readonly<Record<string, unknown>>;
  /** The client whose record it is, if any (a sandbox directory entry is no client's). */
  readonly tenant?: string;
  /** When the table's TTL removes it, if it expires. */
  readonly expires_at?: string;
}

/** Who answers the request: the operator's name and the request's own id, in every audit event. */
export interface RequestAuthor {
  readonly operator: string;
  readonly requestId: string;
}

/** What one client's audit event says of a request (never the whole number: its last four). */
export interface RequestSummary {
  readonly action: 'personal_data.exported' | 'personal_data.erased';
  readonly identification_type: string;
  readonly identification_number: string;
  readonly found: number;
  readonly erased?: number;
  readonly masked?: number;
  readonly kept?: number;
}

export interface PersonalDataStore {
  /**
   * Every item of the table `names` selects. A Scan of the whole table (no index names a person:
   * an operator's command, docs/privacy.md says its cost).
   */
  find(names: (item: Readonly<Record<string, unknown>>) => boolean): Promise<FoundItem[]>;
  /** Deletes an item that no list counts (a resolution, a sandbox directory entry); nothing when gone. */
  remove(item: FoundItem): Promise<void>;
  /** Deletes a recipient, out of its lists' counters too; nothing when gone. */
  removeRecipient(item: FoundItem): Promise<void>;
  /** Sets `fields` on the item, if it is still there. */
  update(item: FoundItem, fields: Readonly<Record<string, unknown>>): Promise<void>;
  /** Records the request in `tenant`'s audit trail, as the operator. */
  audit(author: RequestAuthor, tenant: string, summary: RequestSummary): Promise<void>;
}

/** The trail a request is recorded in whatever it found: the platform's own, read by no client. */
export const PLATFORM_TRAIL = 'platform';

const NAME_FIELDS = ['first_name', 'second_name', 'first_last_name', 'second_last_name', 'business_name', 'name'];

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * Whether `value` is the subject's identification: its number, and its type (a credit from the
 * network may name a payer's number without its type: the number alone then).
 */
const isSubject = (value: Json, subject: DataSubject): boolean =>
  value['identification_number'] === subject.identification_number &&
  (value['identification_type'] === subject.identification_type || value['identification_type'] === undefined);

/** A string that holds a JSON object (a stored HTTP answer's body), parsed; else undefined. */
function parsedObject(value: string): Json | undefined {
  if (!value.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether anything in `value` (objects, arrays, JSON bodies, however deep) names the subject. */
export function namesSubject(value: unknown, subject: DataSubject): boolean {
  if (typeof value === 'string') {
    const parsed = parsedObject(value);
    return parsed !== undefined && namesSubject(parsed, subject);
  }
  if (Array.isArray(value)) return value.some((entry) => namesSubject(entry, subject));
  if (!isObject(value)) return false;
  return isSubject(value, subject) || Object.values(value).some((entry) => namesSubject(entry, subject));
}

/** The subject's identification object with its number masked and its names erased. */
const maskedIdentity = (value: Json): Json =>
  Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      name === 'identification_number' && typeof field === 'string'
        ? maskNumber(field)
        : NAME_FIELDS.includes(name) && typeof field === 'string'
          ? '[erased]'
          : field,
    ]),
  );

/**
 * `value` with every mention of the subject masked: their identification (number masked, names
 * erased) and, beside it as a payee's or payer's, the account number and key value.
 */
export function maskSubject(value: unknown, subject: DataSubject): unknown {
  if (typeof value === 'string') {
    const parsed = parsedObject(value);
    return parsed && namesSubject(parsed, subject) ? JSON.stringify(maskSubject(parsed, subject)) : value;
  }
  if (Array.isArray(value)) return value.map((entry) => maskSubject(entry, subject));
  if (!isObject(value)) return value;
  if (isSubject(value, subject)) return maskedIdentity(value);
  const masked = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, maskSubject(field, subject)]));
  const owner = value['owner'];
  if (!isObject(owner) || !isSubject(owner, subject)) return masked;
  const account = value['account'];
  const key = value['key'];
  return {
    ...masked,
    ...(isObject(account) && typeof account['account_number'] === 'string' && !isMasked(account['account_number'])
      ? { account: { ...account, account_number: maskNumber(account['account_number']) } }
      : {}),
    ...(isObject(key) && typeof key['key_value'] === 'string'
      ? { key: { ...key, key_value: maskNumber(key['key_value']) } }
      : {}),
  };
}

/** What an erasure does with one kind of record. */
type Rule =
  { readonly does: 'remove' | 'remove_recipient' | 'mask' } | { readonly does: 'keep'; readonly reason: string };

/** Financial records: Colombian commercial law keeps a merchant's books and papers 10 years. */
const FINANCIAL_RECORD =
  'a financial record: kept 10 years (Código de Comercio art. 60; Ley 962 de 2005 art. 28), never shown ' +
  'but to the client whose payment it is';

/** Each kind of record naming a person, and what an erasure does with it (docs/privacy.md, "Erasure"). */
function ruleOf(item: FoundItem): Rule {
  switch (item.entity) {
    case 'RESOLUTION':
      return { does: 'remove' };
    case 'IDEMPOTENCY':
      // A replay under the key still answers, the person masked in it: removing it would let a
      // retry run the request again.
      return { does: 'mask' };
    case 'RECIPIENT':
      return { does: 'remove_recipient' };
    case 'DIRECTORY_ENTRY':
      return item.record['source'] === 'SANDBOX'
        ? { does: 'remove' }
        : {
            does: 'keep',
            reason:
              "a merchant's key registered in the Bre-B directory: removed when its client deletes the key " +
              '(DELETE /v1/keys/{id}), which the contract with the merchant governs',
          };
    case 'PAYMENT':
    case 'REFUND':
    case 'SETTLED_TRANSFER':
    case 'CREDIT_ANSWER':
    case 'REVERSAL':
      return { does: 'keep', reason: FINANCIAL_RECORD };
    case 'EVENT':
      return { does: 'keep', reason: `a copy of a payment (${FINANCIAL_RECORD}), in the events for 30 days` };
    case 'CUSTOMER':
    case 'SPONSOR_MERCHANT':
      return {
        does: 'keep',
        reason:
          'a merchant linked to a client and approved by the sponsor bank: kept while the merchant is ' +
          "linked (the contract), then as the merchant's commercial record",
      };
    case 'AUDIT_EVENT':
      return {
        does: 'keep',
        reason:
          'the audit trail: never changed, so that who did what can be shown (Ley 1581 art. 17; Decreto 1377 art. 26)',
      };
    default:
      return {
        does: 'keep',
        reason: 'no erasure rule for this kind of record: kept for an operator to review by hand',
      };
  }
}

/** The records found, by kind, as the export writes them. */
export interface PersonalDataExport {
  readonly subject: DataSubject;
  readonly exported_at: string;
  readonly records: readonly FoundItem[];
}

export interface ErasedItem {
  readonly entity: string;
  readonly pk: string;
  readonly tenant?: string;
}

export interface KeptItem extends ErasedItem {
  readonly reason: string;
  readonly expires_at?: string;
}

export interface Erasure {
  readonly subject: DataSubject;
  readonly erased_at: string;
  readonly erased: readonly ErasedItem[];
  readonly masked: readonly ErasedItem[];
  readonly kept: readonly KeptItem[];
}

const tenantOf = (item: FoundItem): string | undefined => item.tenant;

const described = (item: FoundItem): ErasedItem => ({
  entity: item.entity,
  pk: item.pk,
  ...(tenantOf(item) === undefined ? {} : { tenant: tenantOf(item) }),
});

/** Every client whose records were found, with what the request did to them. */
async function auditRequest(
  store: PersonalDataStore,
  author: RequestAuthor,
  subject: DataSubject,
  action: RequestSummary['action'],
  outcome: readonly { readonly item: FoundItem; readonly did: 'erased' | 'masked' | 'kept' | 'found' }[],
): Promise<void> {
  const summaryOf = (items: typeof outcome): RequestSummary => {
    const count = (did: string) => items.filter((entry) => entry.did === did).length;
    return {
      action,
      identification_type: subject.identification_type,
      identification_number: maskNumber(subject.identification_number),
      found: items.length,
      ...(action === 'personal_data.erased'
        ? { erased: count('erased'), masked: count('masked'), kept: count('kept') }
        : {}),
    };
  };
  const tenants = new Set(outcome.map((entry) => tenantOf(entry.item)).filter((t): t is string => t !== undefined));
  await store.audit(author, PLATFORM_TRAIL, summaryOf(outcome));
  for (const tenant of tenants) {
    await store.audit(author, tenant, summaryOf(outcome.filter((entry) => tenantOf(entry.item) === tenant)));
  }
}

/** `npm run privacy:export`: every record naming the subject, audited. */
export async function exportPersonalData(
  store: PersonalDataStore,
  author: RequestAuthor,
  subject: DataSubject,
  now: string,
): Promise<PersonalDataExport> {
  const records = await store.find((item) => namesSubject(item, subject));
  await auditRequest(
    store,
    author,
    subject,
    'personal_data.exported',
    records.map((item) => ({ item, did: 'found' as const })),
  );
  return { subject, exported_at: now, records };
}

/**
 * `npm run privacy:erase`: removes or masks what no law makes us keep, and says what it kept and
 * why. Safe to run again: what it removed or masked names the subject no more, and is not found.
 */
export async function erasePersonalData(
  store: PersonalDataStore,
  author: RequestAuthor,
  subject: DataSubject,
  now: string,
): Promise<Erasure> {
  const found = await store.find((item) => namesSubject(item, subject));
  const outcome: { item: FoundItem; did: 'erased' | 'masked' | 'kept' }[] = [];
  const kept: KeptItem[] = [];
  for (const item of found) {
    const rule = ruleOf(item);
    if (rule.does === 'keep') {
      kept.push({
        ...described(item),
        reason: rule.reason,
        ...(item.expires_at ? { expires_at: item.expires_at } : {}),
      });
      outcome.push({ item, did: 'kept' });
    } else if (rule.does === 'mask') {
      const masked = maskSubject(item.record, subject) as Json;
      const changed = Object.entries(masked).filter(
        ([name, field]) => JSON.stringify(field) !== JSON.stringify(item.record[name]),
      );
      await store.update(item, Object.fromEntries(changed));
      outcome.push({ item, did: 'masked' });
    } else {
      await (rule.does === 'remove_recipient' ? store.removeRecipient(item) : store.remove(item));
      outcome.push({ item, did: 'erased' });
    }
  }
  await auditRequest(store, author, subject, 'personal_data.erased', outcome);
  const done = (did: string) => outcome.filter((entry) => entry.did === did).map((entry) => described(entry.item));
  return { subject, erased_at: now, erased: done('erased'), masked: done('masked'), kept };
}
