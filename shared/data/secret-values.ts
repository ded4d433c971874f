/**
 * Secrets Manager's values, through Powertools Parameters (docs/dependencies.md): each kept for five
 * minutes in the instance, so that a rotation reaches every function within five minutes without a
 * redeploy, and a warm function reads a secret once per five minutes at most. The client's endpoint
 * comes from AWS_ENDPOINT_URL when set (LocalStack), as for every SDK client.
 */
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';

/** How long a value read is served before it is read again. */
export const SECRET_MAX_AGE_SECONDS = 5 * 60;

let provider: SecretsProvider | undefined;

/** The string value of the secret `arn`, from the cache while it is younger than five minutes. */
export async function secretString(arn: string): Promise<string> {
  provider ??= new SecretsProvider({ clientConfig: { maxAttempts: 3 } });
  const value = await provider.get(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
  if (typeof value !== 'string' || value === '') throw new Error(`The secret ${arn} has no string value`);
  return value;
}
