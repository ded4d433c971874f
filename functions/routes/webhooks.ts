/**
 * The route family "Webhooks and events": the client's webhooks, their deliveries, its events of the last 30 days, and the audit trail of who changed what. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const webhookRoutes: RouteFamily = {
  name: 'webhooks',
  title: 'Webhooks and events',
  routes: [
    {
      name: 'createWebhook',
      method: 'POST',
      paths: ['/v1/webhooks'],
      handler: 'create-webhook',
      summary: 'Create a webhook; the answer shows its signing secret, once',
      schemas: { body: 'createWebhookRequestSchema', query: 'emptyQuerySchema', response: 'webhookWithSecretSchema' },
      problems: ['WEBHOOK_LIMIT_REACHED'],
      scopes: [SCOPES.webhooksWrite],
      // The transaction puts the webhook and its audit event, and updates its list's counters and its
      // tenant's webhook set.
      tableActions: IDEMPOTENCY_ACTIONS,
      sealing: ['seal'],
    },
    {
      name: 'listWebhooks',
      method: 'GET',
      paths: ['/v1/webhooks'],
      handler: 'list-webhooks',
      summary: "List the client's webhooks, a page at a time",
      schemas: { body: null, query: 'webhookListQuerySchema', response: 'webhookListSchema' },
      problems: [],
      scopes: [SCOPES.webhooksRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'getWebhook',
      method: 'GET',
      paths: ['/v1/webhooks/{id}'],
      handler: 'get-webhook',
      summary: "Read one of the client's webhooks",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookSchema' },
      problems: [],
      scopes: [SCOPES.webhooksRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'updateWebhook',
      method: 'PATCH',
      paths: ['/v1/webhooks/{id}'],
      handler: 'update-webhook',
      summary: "Change a webhook's URL, events, delivery mode, state or description",
      schemas: { body: 'updateWebhookRequestSchema', query: 'emptyQuerySchema', response: 'webhookSchema' },
      problems: ['CONCURRENT_UPDATE'],
      scopes: [SCOPES.webhooksWrite],
      tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    },
    {
      name: 'deleteWebhook',
      method: 'DELETE',
      paths: ['/v1/webhooks/{id}'],
      handler: 'delete-webhook',
      summary: 'Delete a webhook: nothing more is sent to it',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookSchema' },
      problems: [],
      scopes: [SCOPES.webhooksWrite],
      // Reads the webhook; the transaction deletes it, updates its list's counters and its tenant's
      // webhook set, and puts its audit event.
      tableActions: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
    },
    {
      name: 'rotateWebhookSecret',
      method: 'POST',
      paths: ['/v1/webhooks/{id}/rotate-secret'],
      handler: 'rotate-webhook-secret',
      summary: "Rotate a webhook's signing secret; the previous one signs for 24 hours more",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookWithSecretSchema' },
      problems: ['CONCURRENT_UPDATE'],
      scopes: [SCOPES.webhooksWrite],
      // Reads the webhook and updates its secrets.
      tableActions: IDEMPOTENCY_ACTIONS,
      sealing: ['open', 'seal'],
    },
    {
      name: 'sendWebhookTest',
      method: 'POST',
      paths: ['/v1/webhooks/{id}/test'],
      handler: 'send-webhook-test',
      summary: 'Send a webhook.test event to a webhook',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookDeliverySchema' },
      problems: ['WEBHOOK_DISABLED'],
      scopes: [SCOPES.webhooksWrite],
      // Reads the webhook; the transaction puts the test event and its delivery and updates the
      // deliveries' counters (the dispatcher queues it from the stream).
      tableActions: IDEMPOTENCY_ACTIONS,
    },
    {
      name: 'listWebhookDeliveries',
      method: 'GET',
      paths: ['/v1/webhooks/{id}/deliveries'],
      handler: 'list-webhook-deliveries',
      summary: "List a webhook's deliveries, each with every attempt",
      schemas: { body: null, query: 'webhookDeliveryListQuerySchema', response: 'webhookDeliveryListSchema' },
      problems: [],
      scopes: [SCOPES.webhooksRead],
      // A page of the webhook's deliveries, read with the webhook: one BatchGetItem with the list's
      // counter, or a GetItem of its own when a filter counts the list instead.
      tableActions: [...LIST_ACTIONS, 'BatchGetItem', 'GetItem'],
    },
    {
      name: 'redeliverWebhookDelivery',
      method: 'POST',
      paths: ['/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver'],
      handler: 'redeliver-webhook-delivery',
      summary: 'Send a delivery again, in a new round of attempts',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookDeliverySchema' },
      problems: ['DELIVERY_IN_PROGRESS', 'CONCURRENT_UPDATE'],
      scopes: [SCOPES.webhooksWrite],
      // Reads the webhook and the delivery, opens a new round on it, and queues its first attempt.
      tableActions: IDEMPOTENCY_ACTIONS,
      queues: ['webhookDeliveries'],
    },
    {
      name: 'listEvents',
      method: 'GET',
      paths: ['/v1/events'],
      handler: 'list-events',
      summary: "List the client's events of the last 30 days, newest first, as its webhooks receive them",
      schemas: { body: null, query: 'eventListQuerySchema', response: 'eventListSchema' },
      problems: [],
      scopes: [SCOPES.webhooksRead],
      // A page of the events and the window's counters by day: Query only.
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'getEvent',
      method: 'GET',
      paths: ['/v1/events/{id}'],
      handler: 'get-event',
      summary: "Read one of the client's events of the last 30 days",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'eventSchema' },
      problems: [],
      scopes: [SCOPES.webhooksRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'listAuditEvents',
      method: 'GET',
      paths: ['/v1/audit-events'],
      handler: 'list-audit-events',
      summary: "List who changed the client's resources and downloaded its reports, a page at a time",
      schemas: { body: null, query: 'auditEventListQuerySchema', response: 'auditEventListSchema' },
      problems: [],
      scopes: [SCOPES.auditRead],
      // A page of events, then their hash chain links in one BatchGetItem (with the counter's shards on
      // page 1: docs/audit.md).
      tableActions: [...LIST_ACTIONS, 'BatchGetItem'],
    },
  ],
};
