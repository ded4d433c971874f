/** readOwn: the one check between a client and any record it names by id. */
import { AppError } from '../../shared/domain/errors';
import { readOwn } from '../../shared/domain/ownership';

const ID = '0b0d3c52-6f0e-4d7f-9a55-2f8d8e1c4a10';
const records = new Map([[ID, { id: ID, tenant: 'client-a', secret: 'NIT 900123456' }]]);
const read = async (id: string) => records.get(id);

const problem = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

test("answers the tenant's own record", async () => {
  await expect(readOwn(read, 'client-a', 'Account', ID)).resolves.toEqual(records.get(ID));
});

test('finds an id sent in upper case (ids are stored in lower case)', async () => {
  await expect(readOwn(read, 'client-a', 'Account', ID.toUpperCase())).resolves.toEqual(records.get(ID));
});

test('an unknown id is NOT_FOUND, naming the id as sent', async () => {
  const error = await problem(readOwn(read, 'client-a', 'Account', 'a1b2c3d4-0000-4000-8000-000000000000'));
  expect(error.code).toBe('NOT_FOUND');
  expect(error.message).toBe('Account a1b2c3d4-0000-4000-8000-000000000000 does not exist');
});

test("another client's record is FORBIDDEN and its data stays out of the error", async () => {
  const error = await problem(readOwn(read, 'client-b', 'QR code', ID));
  expect(error.code).toBe('FORBIDDEN');
  expect(error.message).toBe(`QR code ${ID} belongs to another client`);
  expect(JSON.stringify({ ...error, message: error.message })).not.toContain('900123456');
});
