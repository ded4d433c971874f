/**
 * shared/observability/json-logger.ts's API over Powertools' Logger, for bench/dependencies.ts: the
 * function bundled with the library in place of our logger. Each call of a handler adds its Lambda
 * context and clears its keys after, as Powertools' injectLambdaContext does.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

export interface LoggerOptions {
  readonly serviceName: string;
}

export class JsonLogger extends Logger {
  constructor(options: LoggerOptions) {
    super({ serviceName: options.serviceName });
  }

  withLambdaContext<Handler extends (...args: never[]) => Promise<unknown>>(handler: Handler): Handler {
    const scoped = async (...args: never[]) => {
      this.addContext(args[1] as unknown as Context);
      try {
        return await handler(...args);
      } finally {
        this.resetKeys();
      }
    };
    return scoped as Handler;
  }
}
