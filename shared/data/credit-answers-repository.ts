/**
 * The answers given to network credits (docs/network.md, "Credits"), one item per end_to_end_id,
 * written once (attribute_not_exists) and kept 7 days by the table's TTL. DynamoDB deletes expired
 * items up to a few days late: an answer read then is still the answer given, so it is answered.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CreditAnswerStore, KeptCreditAnswer } from '../domain/network-credits';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

/** How long an answer is kept: the network retries a credit for far less. */
export const CREDIT_ANSWER_TTL_SECONDS = 7 * 24 * 60 * 60;

const CREDIT_ANSWER_ENTITY = 'CREDIT_ANSWER';

/** The kept answer, its fields in the order every answer has them (DynamoDB keeps a map's in none). */
function keptOf(item: Record<string, unknown>): KeptCreditAnswer {
  const { status, reason, payment_id: paymentId } = item['answer'] as KeptCreditAnswer['answer'];
  return {
    fingerprint: item['fingerprint'] as string,
    answer: {
      status,
      ...(reason === undefined ? {} : { reason }),
      ...(paymentId === undefined ? {} : { payment_id: paymentId }),
    },
  };
}

export const dynamoCreditAnswers: CreditAnswerStore = {
  async get(endToEndId) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.creditAnswer(endToEndId), ConsistentRead: true }),
    );
    return Item ? keptOf(Item) : undefined;
  },

  async keep(endToEndId, kept) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...itemKeys.creditAnswer(endToEndId),
            entity: CREDIT_ANSWER_ENTITY,
            fingerprint: kept.fingerprint,
            answer: kept.answer,
            expires_at: Math.floor(Date.now() / 1000) + CREDIT_ANSWER_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return kept;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // A racing copy kept its answer first: that one is the credit's answer.
      if (error.Item) return keptOf(unmarshall(error.Item));
      const first = await dynamoCreditAnswers.get(endToEndId);
      if (!first) throw error;
      return first;
    }
  },
};
