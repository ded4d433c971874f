/**
 * The table diff the reliability suites prove "nothing written" with (test/support/table-diff.ts):
 * an item equal in every attribute is unchanged whatever its attributes' order, and any other
 * difference, however deep (a nested field, a set's member, a binary's byte, an attribute gone), is a
 * change.
 */
import { diffItems, isUnchanged } from '../support/table-diff';

const item = () => ({
  pk: 'CUSTOMER#1',
  sk: 'ACCOUNT#2',
  entity: 'ACCOUNT',
  balance_cents: 1_000,
  owner: { name: 'Lucía', documents: ['CC', 123] },
  scopes: new Set(['read', 'write']),
  secret: new Uint8Array([1, 2, 3]),
});

test('an item equal in every attribute is unchanged, whatever the order of its attributes and set members', () => {
  const reordered = Object.fromEntries(Object.entries(item()).reverse());
  reordered['scopes'] = new Set(['write', 'read']);
  expect(isUnchanged(diffItems([item()], [reordered]))).toBe(true);
});

test.each<[string, (changed: Record<string, any>) => void]>([
  ['a top-level number', (changed) => (changed['balance_cents'] = 1_001)],
  ['a nested field', (changed) => (changed['owner'].documents[1] = 124)],
  ['a set member', (changed) => (changed['scopes'] = new Set(['read']))],
  ['a byte of a binary', (changed) => (changed['secret'] = new Uint8Array([1, 2, 4]))],
  ['an attribute removed', (changed) => delete changed['owner']],
  ['an attribute added', (changed) => (changed['note'] = '')],
])('%s changed is a change of that item', (_, change) => {
  const after = item();
  change(after);
  const changes = diffItems([item()], [after]);
  expect(changes.changed).toEqual([{ before: item(), after }]);
  expect([changes.added, changes.removed]).toEqual([[], []]);
});

test('items are told apart by their key: one added, one removed', () => {
  const other = { ...item(), sk: 'ACCOUNT#3' };
  expect(diffItems([item()], [other])).toEqual({ added: [other], removed: [item()], changed: [] });
});
