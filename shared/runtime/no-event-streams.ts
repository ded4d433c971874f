/**
 * The AWS SDK's event streams in the Lambda bundles: this replaces @smithy/core/event-streams there
 * (an esbuild alias, infra/constructs/function-bundle.ts). Only an operation that streams events
 * uses them (S3's SelectObjectContent), and no function of ours sends one; yet S3's client imports
 * the codec when it is created, to make its marshaller (≈15 KB minified in every function that
 * reads or writes files). In the bundles S3's client is created without one, and an operation that
 * streams events would fail at once, saying why. The other clients import the module only to send
 * such an operation, which none of ours does. The local server and the tests run unbundled, with the
 * SDK's module.
 */

/** Same name as the export it replaces: the client's settings, with no marshaller made. */
export const resolveEventStreamSerdeConfig = <Config extends object>(input: Config): Config => input;

/** Same name as the export it replaces: called only by an operation that streams events. */
export const eventStreamSerdeProvider = (): never => {
  throw new Error('Event streams are left out of the bundles (shared/runtime/no-event-streams.ts)');
};
