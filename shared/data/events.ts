/**
 * The outbox (docs/data-model.md, EVENT): each event is put in the transaction of the change it
 * reports, so it exists exactly when the change was committed. The table's TTL removes it after 30
 * days: long enough for every delivery and its retries, short enough that the outbox stays small.
 */
import type { DomainEvent } from '../domain/events';
import { tableName } from './client';
import { itemKeys } from './item-keys';
import type { TransactItem } from './transactions';

const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The Put of one event, inside the transaction of its change (an event id is written once). */
export const eventPut = (event: DomainEvent): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...itemKeys.event(event.id),
      entity: 'EVENT',
      ...event,
      expires_at: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_TTL_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});
