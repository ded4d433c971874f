/**
 * Who may call the API: either this stack's own Cognito user pool (a token endpoint on a Cognito
 * domain, a resource server whose scopes are the route table's, and client-credentials app
 * clients), or an external issuer named in the stage settings. Either way the result is the JWT
 * authorizer that every route sits behind.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  UserPoolClient,
  UserPoolResourceServer,
} from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { allScopes, readScopes, SCOPE_PREFIX, type Scope } from '../../functions/routes';
import { removalPolicyOf, type AppClientSettings, type CognitoIdentitySettings, type StageSettings } from '../stages';

/** `breb/customers.read` -> `customers.read`: Cognito names a scope relative to its resource server. */
export const scopeName = (scope: Scope): string => scope.slice(SCOPE_PREFIX.length + 1);

/** `customers.read` -> `read customers`: the description Cognito shows next to the scope. */
const describeScope = (scope: Scope): string => {
  const [resource, access] = scopeName(scope).split('.');
  return `${access} ${resource}`;
};

/** Tokens live an hour, as the local issuer's do; clients fetch a new one rather than refresh. */
const ACCESS_TOKEN_VALIDITY = Duration.hours(1);

export class Identity extends Construct {
  readonly authorizer: HttpJwtAuthorizer;
  /** The `iss` the authorizer trusts. */
  readonly issuer: string;
  /** The `aud` / `client_id` values the authorizer accepts: the app client ids with Cognito. */
  readonly audience: readonly string[];
  /** Present only when the stage uses Cognito. */
  readonly userPool: UserPool | undefined;
  /** App clients by their settings name (Cognito only). */
  readonly clients: ReadonlyMap<string, UserPoolClient>;
  /** The OAuth2 token endpoint: Cognito's, or the external issuer's. */
  readonly tokenUrl: string;

  constructor(scope: Construct, id: string, props: { readonly settings: StageSettings }) {
    super(scope, id);
    const { settings } = props;
    const { identity } = settings;

    if (identity.kind === 'cognito') {
      const { userPool, clients, tokenUrl } = this.createUserPool(settings, identity);
      this.userPool = userPool;
      this.clients = clients;
      this.tokenUrl = tokenUrl;
      // Cognito access tokens carry no `aud`: API Gateway matches `client_id` against the audience.
      this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${userPool.userPoolId}`;
      this.audience = [...clients.values()].map((client) => client.userPoolClientId);
    } else {
      this.userPool = undefined;
      this.clients = new Map();
      this.tokenUrl = identity.tokenUrl;
      this.issuer = identity.issuer;
      this.audience = identity.audience;
    }

    this.authorizer = new HttpJwtAuthorizer('JwtAuthorizer', this.issuer, { jwtAudience: [...this.audience] });
  }

  private createUserPool(settings: StageSettings, identity: CognitoIdentitySettings) {
    const userPool = new UserPool(this, 'UserPool', {
      userPoolName: `breb-merchant-api-${settings.name}`,
      // Machine clients only: nobody signs up, and there are no users to recover.
      selfSignUpEnabled: false,
      accountRecovery: AccountRecovery.NONE,
      featurePlan: FeaturePlan.ESSENTIALS,
      // Should a person ever be added (an operator console), the pool is strict from the start.
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      deletionProtection: settings.retainData,
      // Losing the pool changes every client id: the tenants of all stored data.
      removalPolicy: removalPolicyOf(settings),
    });
    NagSuppressions.addResourceSuppressions(userPool, [
      {
        id: 'AwsSolutions-COG8',
        reason:
          "The Plus tier's threat protection guards user sign-ins; this pool has no users, only " +
          'client-credentials app clients, which it does not cover.',
      },
    ]);

    const domain = userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: identity.domainPrefix } });

    const scopes = new Map(
      allScopes.map((scope) => [
        scope,
        new ResourceServerScope({ scopeName: scopeName(scope), scopeDescription: describeScope(scope) }),
      ]),
    );
    const resourceServer = new UserPoolResourceServer(this, 'ResourceServer', {
      userPool,
      identifier: SCOPE_PREFIX,
      userPoolResourceServerName: 'Bre-B merchant API',
      scopes: [...scopes.values()],
    });

    const clients = new Map<string, UserPoolClient>();
    for (const client of identity.clients) {
      const granted = client.access === 'full' ? allScopes : readScopes;
      const oauthScopes = granted.map((scope) => OAuthScope.resourceServer(resourceServer, scopes.get(scope)!));
      clients.set(client.name, this.createClient(userPool, client, oauthScopes));
    }

    return { userPool, clients, tokenUrl: `${domain.baseUrl()}/oauth2/token` };
  }

  private createClient(userPool: UserPool, client: AppClientSettings, scopes: OAuthScope[]): UserPoolClient {
    return userPool.addClient(`Client-${client.name}`, {
      userPoolClientName: client.name,
      // A confidential client: the secret never leaves Cognito except to an operator who reads it.
      generateSecret: true,
      oAuth: { flows: { clientCredentials: true }, scopes },
      accessTokenValidity: ACCESS_TOKEN_VALIDITY,
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
  }
}
