/**
 * The function of the API's own description (functions/contract.ts): GET /openapi.json, GET /docs and
 * the page's files, routed by the stack without the authorizer. A ServiceFunction like any other
 * (its role holds its log group and X-Ray only: it declares no table action, secret or queue), whose
 * bundle also carries Swagger UI's two files, where the handler finds the package as Node finds it
 * (node_modules/swagger-ui-dist beside the code), and which learns the stage's token endpoint for
 * the document's OAuth2 scheme.
 */
import { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { CONTRACT_TIMEOUT_SECONDS, contractRoutes, TOKEN_URL_ENV } from '../../functions/contract';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

/**
 * The package of the reference page's files: copied beside the bundle rather than bundled, it is one
 * of the `dependencies` all the same (docs/operations.md, "Dependencies").
 */
export const SWAGGER_UI_PACKAGE = 'swagger-ui-dist';

/** What the reference page loads from the swagger-ui-dist package (shared/http/contract-pages.ts). */
export const SWAGGER_UI_FILES = ['package.json', 'swagger-ui.css', 'swagger-ui-bundle.js'] as const;

export interface ContractFunctionProps extends Omit<
  ServiceFunctionProps,
  'definition' | 'description' | 'timeout' | 'environment' | 'besideBundle'
> {
  /** The stage's token endpoint, which the document's client-credentials flow names. */
  readonly tokenUrl: string;
}

export class ContractFunction extends ServiceFunction {
  constructor(scope: Construct, id: string, props: ContractFunctionProps) {
    const { tokenUrl, ...common } = props;
    super(scope, id, {
      ...common,
      definition: contractRoutes,
      description: `${contractRoutes.method} ${contractRoutes.paths.join(' ')}: the API's description`,
      timeout: Duration.seconds(CONTRACT_TIMEOUT_SECONDS),
      environment: { [TOKEN_URL_ENV]: tokenUrl },
      besideBundle: [{ packageName: SWAGGER_UI_PACKAGE, files: SWAGGER_UI_FILES }],
    });
  }
}
