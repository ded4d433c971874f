/**
 * The baseline's logger, as the functions logged before shared/observability/json-logger.ts: Powertools' Logger and
 * its middleware. The baseline build (bench/functions/builds.ts) loads this file in its place.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext as powertoolsInject } from '@aws-lambda-powertools/logger/middleware';

export { Logger as JsonLogger };

export const injectLambdaContext = (logger: Logger) => powertoolsInject(logger, { resetKeys: true });
