/** Every record belongs to the client (tenant) that created it; another client learns nothing of it. */
import { AppError } from './errors';

/**
 * Reads one of the tenant's records by id: 404 when there is none, 403 when it is another client's
 * (docs/contract.md, Tokens), never its data. Ids are the UUIDs we generate, stored in lower case: any case finds them.
 */
export async function readOwn<T extends { readonly tenant: string }>(
  read: (id: string) => Promise<T | undefined>,
  tenant: string,
  noun: string,
  id: string,
): Promise<T> {
  const record = await read(id.toLowerCase());
  if (!record) throw new AppError('NOT_FOUND', `${noun} ${id} does not exist`);
  if (record.tenant !== tenant) throw new AppError('FORBIDDEN', `${noun} ${id} belongs to another client`);
  return record;
}

/** readOwn for one kind of record, read from its store; `noun` names the kind in the errors. */
export const ownReader =
  <T extends { readonly tenant: string }>(noun: string) =>
  (records: { get(id: string): Promise<T | undefined> }, tenant: string, id: string): Promise<T> =>
    readOwn((recordId) => records.get(recordId), tenant, noun, id);

/** A GET route's rule: one of the tenant's records, read with `read`, answered in its public form. */
export const publicGetter =
  <T extends { readonly tenant: string }, P>(
    read: (records: { get(id: string): Promise<T | undefined> }, tenant: string, id: string) => Promise<T>,
    toPublic: (record: T) => P,
  ) =>
  async (records: { get(id: string): Promise<T | undefined> }, tenant: string, id: string): Promise<P> =>
    toPublic(await read(records, tenant, id));
