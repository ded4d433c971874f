/**
 * The local runtime's IAM for the table: each function's DynamoDB calls are checked against the table
 * actions its entry declares (the route table, the network routes, the worker table), which are all
 * its execution role allows on AWS (test/infra/privileges.ts checks the roles). A call outside them
 * fails as AWS fails it, AccessDeniedException, so a declaration missing an action fails the local
 * tests instead of the deployed function. So does a write of a money partition by a function that does
 * not declare `writesMoney`, which its role's Deny refuses on AWS. Calls made outside a function (the
 * runtime's set-up, the tests' own reads) are not checked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { networkRoutes, routesFor, type FunctionDefinition } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { MONEY_KEY_PREFIXES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import type { TableAction } from '../../shared/data/table';

/** The function whose invocation is running, where one is. */
const running = new AsyncLocalStorage<string>();

/**
 * The header that names the function making a call (nameCallsByFunction): the benchmarks' recording
 * proxy keeps it, so that a simulation knows whose call it was (bench/scale.ts). DynamoDB ignores it.
 */
export const FUNCTION_HEADER = 'x-breb-function';

/** Runs `call` as an invocation of the function `name`: its DynamoDB calls are checked against its grants. */
export const asFunction = <T>(name: string, call: () => T): T => running.run(name, call);

const declared = new Map<string, FunctionDefinition>(
  [...routesFor(true), ...networkRoutes, ...workers].map((entry) => [entry.name, entry]),
);

/** The item actions inside a transaction, as IAM checks them. */
const TRANSACTION_ITEM_ACTIONS: Record<string, TableAction> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

type Input = Record<string, unknown>;

/** The table actions a call needs, each with the key it acts on where it names one. */
function actionsOf(command: string, input: Input): { action: string; pk?: string }[] {
  const pkOf = (body: Input): string | undefined =>
    ((body['Key'] ?? body['Item']) as Record<string, unknown> | undefined)?.['pk'] as string | undefined;
  if (command === 'TransactWriteItems') {
    return (input['TransactItems'] as Record<string, Input>[]).map((entry) => {
      const [kind, body] = Object.entries(entry)[0]!;
      return { action: TRANSACTION_ITEM_ACTIONS[kind] ?? kind, pk: pkOf(body) };
    });
  }
  if (command === 'TransactGetItems') return [{ action: 'GetItem' }];
  return [{ action: command, pk: pkOf(input) }];
}

/** What the shared chain of every route may do besides its declaration: count its tenant's requests. */
const isRateWindow = (action: string, pk: string | undefined, entry: FunctionDefinition): boolean =>
  action === 'UpdateItem' && !!pk?.startsWith(RATE_WINDOW_KEY_PREFIX) && 'method' in entry;

/** The writes a role's money Deny refuses (infra/constructs/service-function.ts, moneyPartitionsGuarded). */
const MONEY_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

const writesMoneyUndeclared = (action: string, pk: string | undefined, entry: FunctionDefinition): boolean =>
  !entry.writesMoney && MONEY_WRITES.has(action) && MONEY_KEY_PREFIXES.some((prefix) => pk?.startsWith(prefix));

export class AccessDenied extends Error {
  constructor(name: string, action: string, why = 'its entry does not declare it') {
    super(`${name} is not authorized to perform dynamodb:${action}: ${why}`);
    this.name = 'AccessDeniedException';
  }
}

/** Checks every call of `client` made within a function's invocation against that function's declaration. */
export function enforceGrants(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = running.getStore();
      const entry = name === undefined ? undefined : declared.get(name);
      if (entry && context.commandName) {
        const command = context.commandName.replace(/Command$/, '');
        for (const { action, pk } of actionsOf(command, args.input as Input)) {
          if (!entry.tableActions.includes(action as TableAction) && !isRateWindow(action, pk, entry)) {
            throw new AccessDenied(entry.name, action);
          }
          if (writesMoneyUndeclared(action, pk, entry)) {
            throw new AccessDenied(
              entry.name,
              action,
              `${String(pk)} is a money partition and it does not write money`,
            );
          }
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'enforceGrants' },
  );
}

/** Names, in FUNCTION_HEADER, the function whose invocation makes each call of `client`. */
export function nameCallsByFunction(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const name = running.getStore();
      const request = args.request as { headers?: Record<string, string> } | undefined;
      if (name !== undefined && request?.headers) request.headers[FUNCTION_HEADER] = name;
      return next(args);
    },
    { step: 'build', name: 'nameCallsByFunction' },
  );
}
