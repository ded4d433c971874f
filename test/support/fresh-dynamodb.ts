/**
 * Jest's setup of every test file (setupFilesAfterEnv): the file's DynamoDB Local, asked for before
 * the file's own hooks run, so that a file never changes DynamoDB Local halfway.
 */
import { useFreshDynamoDb } from './worker-dynamodb';

// Starting a DynamoDB Local takes some 4 s; the pool starts it ahead, but a worker may get there first.
beforeAll(() => useFreshDynamoDb(), 60_000);
