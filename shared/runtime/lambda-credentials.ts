/**
 * The AWS SDK's credential provider in the Lambda bundles: it replaces
 * @aws-sdk/credential-provider-node there (an esbuild alias, infra/constructs/api-function.ts). Lambda
 * hands every function its execution role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 * and AWS_SESSION_TOKEN, the first source the SDK's default chain tries. Its other sources (SSO,
 * shared config files, credential processes, web identity tokens, container and instance metadata)
 * never apply in Lambda, yet bring the STS, SSO and sign-in clients into every bundle (≈100 KB
 * minified). The local server and the tests run unbundled, with the SDK's whole chain.
 */

interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

/** Same name and shape as the export it replaces: a factory of credential providers. */
export const defaultProvider = () => async (): Promise<Credentials> => {
  const accessKeyId = process.env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = process.env['AWS_SECRET_ACCESS_KEY'];
  if (!accessKeyId || !secretAccessKey) {
    throw new Error('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set: no credentials for the AWS SDK');
  }
  const sessionToken = process.env['AWS_SESSION_TOKEN'];
  const expiration = process.env['AWS_CREDENTIAL_EXPIRATION'];
  return {
    accessKeyId,
    secretAccessKey,
    ...(sessionToken ? { sessionToken } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
  };
};
