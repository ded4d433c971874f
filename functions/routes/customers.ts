/**
 * The route family "Customers and accounts": linking merchants and their bank accounts, reading them, their movements and statements. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const customerRoutes: RouteFamily = {
  name: 'customers',
  title: 'Customers and accounts',
  routes: [
    {
      name: 'linkMerchant',
      method: 'POST',
      paths: ['/v1/customers/business/link'],
      handler: 'link-merchant',
      summary: 'Link a merchant approved at the sponsor bank',
      schemas: { body: 'linkMerchantRequestSchema', query: 'emptyQuerySchema', response: 'customerSchema' },
      problems: ['MERCHANT_NOT_APPROVED', 'CUSTOMER_ALREADY_LINKED'],
      scopes: [SCOPES.customersWrite],
      tableActions: IDEMPOTENCY_ACTIONS,
    },
    {
      name: 'getCustomer',
      method: 'GET',
      paths: ['/v1/customers/{id}'],
      handler: 'get-customer',
      summary: "Read one of the client's customers",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'customerSchema' },
      problems: [],
      scopes: [SCOPES.customersRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'listCustomers',
      method: 'GET',
      paths: ['/v1/customers'],
      handler: 'list-customers',
      summary: "List the client's customers, a page at a time",
      schemas: { body: null, query: 'customerListQuerySchema', response: 'customerListSchema' },
      problems: [],
      scopes: [SCOPES.customersRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'updateCustomer',
      method: 'PATCH',
      paths: ['/v1/customers/{id}'],
      handler: 'update-customer',
      summary: 'Activate or deactivate a customer',
      schemas: { body: 'updateCustomerRequestSchema', query: 'emptyQuerySchema', response: 'customerSchema' },
      problems: ['CONCURRENT_UPDATE', 'MERCHANT_NOT_APPROVED'],
      scopes: [SCOPES.customersWrite],
      // Reads the customer beside its accounts (Query), updates it with its customer.updated event and
      // its audit event (Puts) in one transaction, which checks the sponsor bank's approval when it
      // activates (ConditionCheckItem), then updates the accounts' status copies.
      tableActions: ['GetItem', 'UpdateItem', 'Query', 'PutItem', 'ConditionCheckItem'],
      writesMoney: true,
    },
    {
      name: 'linkAccount',
      method: 'POST',
      // The partner contract documents the link call without the version prefix; both paths serve it.
      paths: ['/accounts', '/v1/accounts'],
      handler: 'link-account',
      summary: 'Link an account the sponsor bank approved for the customer',
      schemas: { body: 'linkAccountRequestSchema', query: 'emptyQuerySchema', response: 'accountSchema' },
      problems: ['NOT_FOUND', 'FORBIDDEN', 'ACCOUNT_NOT_APPROVED', 'CUSTOMER_INACTIVE', 'ACCOUNT_ALREADY_LINKED'],
      scopes: [SCOPES.accountsWrite],
      // The transaction puts the account and its guard, checks the customer, and updates the counters.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      writesMoney: true,
    },
    {
      name: 'listAccounts',
      method: 'GET',
      paths: ['/v1/accounts', '/accounts'],
      handler: 'list-accounts',
      summary: "List the client's accounts, a page at a time",
      schemas: { body: null, query: 'accountListQuerySchema', response: 'accountListSchema' },
      problems: [],
      scopes: [SCOPES.accountsRead],
      // A page of accounts, then their balance items in one BatchGetItem (with the counter's shards on
      // page 1 of a new walk).
      tableActions: [...LIST_ACTIONS, 'BatchGetItem'],
    },
    {
      name: 'listAccountMovements',
      method: 'GET',
      paths: ['/v1/accounts/{id}/movements'],
      handler: 'list-account-movements',
      summary: "List an account's movements (its ledger), a page at a time",
      schemas: { body: null, query: 'movementListQuerySchema', response: 'movementListSchema' },
      problems: [],
      // The history of the balance GET /v1/accounts/{id} shows: read as the account is.
      scopes: [SCOPES.accountsRead],
      // A page of the account's movements, read with the account (its owner) and its balance item (its
      // movement count) in one BatchGetItem, or the account alone when a date range counts the list.
      tableActions: [...LIST_ACTIONS, 'GetItem', 'BatchGetItem'],
    },
    {
      name: 'getAccountStatement',
      method: 'GET',
      paths: ['/v1/accounts/{id}/statements/{date}'],
      handler: 'get-account-statement',
      summary: "An account's statement of a day in Colombia: opening and closing balances, credits and debits",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'statementSchema' },
      problems: [],
      scopes: [SCOPES.accountsRead],
      // Reads the account with its balance item, the first sealed ledger day from the date on, and the
      // day's movements.
      tableActions: ['GetItem', 'Query'],
    },
    {
      name: 'getAccount',
      method: 'GET',
      paths: ['/v1/accounts/{id}'],
      handler: 'get-account',
      summary: "Read one of the client's accounts, with its balances",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'accountSchema' },
      problems: [],
      scopes: [SCOPES.accountsRead],
      tableActions: ['GetItem'],
    },
  ],
};
