/**
 * DynamoDB's endpoint discovery in the Lambda bundles: it replaces
 * @aws-sdk/middleware-endpoint-discovery there (an esbuild alias, infra/constructs/service-function.ts).
 * The SDK's DynamoDB client resolves endpoint discovery's settings when it is created, with an
 * endpoint cache (an LRU from mnemonist), and its runtime config reads whether discovery is on from
 * AWS_ENABLE_ENDPOINT_DISCOVERY; but no DynamoDB command of this SDK version runs the discovery
 * middleware, and DynamoDB never requires discovery. The bundles take these settings as "off" without
 * the cache or the variables (≈9 KB minified less in every bundle). The local server and the tests run
 * unbundled, with the SDK's own module.
 */

/** Same name and shape as the export it replaces: where the client's runtime config reads the setting. */
export const NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS = {
  environmentVariableSelector: (): undefined => undefined,
  configFileSelector: (): undefined => undefined,
  default: undefined,
};

/** Same name and shape as the export it replaces: the client's resolved settings, discovery off. */
export function resolveEndpointDiscoveryConfig<Config extends object>(input: Config) {
  return Object.assign(input, {
    endpointDiscoveryEnabled: () => Promise.resolve(false),
    isClientEndpointDiscoveryEnabled: false,
  });
}
