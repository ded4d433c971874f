/**
 * The network's credits to one merchant in a Bogotá day, for the stage's daily cap (networkLimits;
 * docs/network.md, "Limits"): one counter item per merchant and day, raised by a conditional ADD (so
 * racing credits never pass the cap together) and expiring by TTL a few days after its day.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayBounds } from '../calendar/colombia-days';
import type { MerchantCreditDays } from '../domain/network-credits';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

/** Kept past its day for an operator's questions, then gone. */
const KEPT_AFTER_DAY_SECONDS = 3 * 24 * 60 * 60;

const expiresAt = (day: string): number => Math.floor(Date.parse(dayBounds(day).end) / 1000) + KEPT_AFTER_DAY_SECONDS;

export const dynamoMerchantCreditDays: MerchantCreditDays = {
  async hold(customerId, day, cents, capCents) {
    if (cents > capCents) return false;
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.merchantCreditDay(customerId, day),
          UpdateExpression: 'ADD credited_cents :cents SET entity = :entity, expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(credited_cents) OR credited_cents <= :room',
          ExpressionAttributeValues: {
            ':cents': cents,
            ':room': capCents - cents,
            ':entity': 'CREDIT_DAY',
            ':expires': expiresAt(day),
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },

  async release(customerId, day, cents) {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: itemKeys.merchantCreditDay(customerId, day),
        UpdateExpression: 'ADD credited_cents :cents',
        ConditionExpression: 'attribute_exists(credited_cents)',
        ExpressionAttributeValues: { ':cents': -cents },
      }),
    );
  },
};
