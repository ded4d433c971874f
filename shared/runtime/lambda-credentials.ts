/**
 * The AWS SDK's credential provider in the Lambda bundles: it replaces
 * @aws-sdk/credential-provider-node there (an esbuild alias, infra/constructs/service-function.ts). Lambda
 * hands every function its execution role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 * and AWS_SESSION_TOKEN, which the first source of the SDK's default chain reads: its `fromEnv`, used
 * here as it is. The chain's other sources (SSO, shared config files, credential processes, web
 * identity tokens, container and instance metadata) never apply in Lambda, yet bring the STS, SSO and
 * sign-in clients into every bundle (≈100 KB minified). The local server and the tests run unbundled,
 * with the SDK's whole chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** Same name and shape as the export it replaces: a factory of credential providers. */
export const defaultProvider = fromEnv;
