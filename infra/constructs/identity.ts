/**
 * Who may call the API: either this stack's own Cognito user pool (a token endpoint on a Cognito
 * domain, a resource server whose scopes are the route table's, client-credentials app clients for
 * the platforms' machines, and, where the dashboard is hosted, a public app client through which the
 * platforms' staff sign in, with a pre-token-generation trigger that gives each person's token their
 * tenant and scopes), or an external issuer named in the stage settings. Either way the result is the
 * JWT authorizer that every route sits behind, accepting the tokens of every app client.
 */
import { Duration, Lazy, Stack } from 'aws-cdk-lib';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  LambdaVersion,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolOperation,
  UserPoolResourceServer,
} from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { allScopes, SCOPE_PREFIX, scopesFor, type Scope } from '../../functions/routes';
import { PERSON_ATTRIBUTES, personClaimsTrigger } from '../../functions/triggers';
import { removalPolicyOf, type AppClientSettings, type CognitoIdentitySettings, type StageSettings } from '../stages';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

/** `breb/customers.read` -> `customers.read`: Cognito names a scope relative to its resource server. */
export const scopeName = (scope: Scope): string => scope.slice(SCOPE_PREFIX.length + 1);

/** `customers.read` -> `read customers`: the description Cognito shows next to the scope. */
const describeScope = (scope: Scope): string => {
  const [resource, access] = scopeName(scope).split('.');
  return `${access} ${resource}`;
};

/** Machines' tokens live an hour, as the local issuer's do; clients fetch a new one rather than refresh. */
const ACCESS_TOKEN_VALIDITY = Duration.hours(1);

/**
 * A person's tokens live half as long: a token left in a browser tab (or copied out of it) is good
 * for less time, and the hosted sign-in's session signs the person in again without a password.
 */
export const PERSON_TOKEN_VALIDITY = Duration.minutes(30);

/**
 * Where the stage asks it (production), a refresh token is replaced at each use and the old one
 * refused after this grace (Cognito's refresh-token rotation): a stolen one works once at most.
 */
export const REFRESH_ROTATION_GRACE = Duration.seconds(10);

/** What the functions of the stack share, for the sign-in's trigger. */
export type SharedFunctionProps = Pick<ServiceFunctionProps, 'settings' | 'table' | 'secrets' | 'queues' | 'secretKey'>;

export interface IdentityProps {
  readonly settings: StageSettings;
  /** For the people's sign-in trigger (Cognito only). */
  readonly functions: SharedFunctionProps;
}

/** The hosted sign-in's endpoints, which the dashboard's config names. */
export interface SignInEndpoints {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly logoutUrl: string;
  /** https://<prefix>.auth.<region>.amazoncognito.com: what the page may fetch from (its token). */
  readonly origin: string;
}

export class Identity extends Construct {
  readonly authorizer: HttpJwtAuthorizer;
  /** The `iss` the authorizer trusts. */
  readonly issuer: string;
  /** Present only when the stage uses Cognito. */
  readonly userPool: UserPool | undefined;
  /** App clients by their settings name (Cognito only). */
  readonly clients: ReadonlyMap<string, UserPoolClient>;
  /** The OAuth2 token endpoint: Cognito's, or the external issuer's. */
  readonly tokenUrl: string;
  /** The pre-token-generation trigger that gives people's tokens their tenant and scopes (Cognito only). */
  readonly personClaims: ServiceFunction | undefined;
  /** Where people sign in, on the pool's domain (Cognito only). */
  readonly signIn: SignInEndpoints | undefined;
  /** The dashboard's public app client, once the dashboard added it (dashboardClientFor). */
  dashboardClient: UserPoolClient | undefined;
  /** Whether people's refresh tokens are rotated at each use (the stage's threat protection). */
  private readonly rotateRefreshTokens: boolean;
  private readonly accepted: string[];

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    const { settings } = props;
    const { identity } = settings;

    if (identity.kind === 'cognito') {
      const { userPool, clients, baseUrl } = this.createUserPool(settings, identity);
      this.userPool = userPool;
      this.clients = clients;
      this.tokenUrl = `${baseUrl}/oauth2/token`;
      // Cognito access tokens carry no `aud`: API Gateway matches `client_id` against the audience.
      this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${userPool.userPoolId}`;
      this.personClaims = this.createPersonClaims(userPool, props.functions);
      this.signIn = {
        authorizeUrl: `${baseUrl}/oauth2/authorize`,
        tokenUrl: this.tokenUrl,
        logoutUrl: `${baseUrl}/logout`,
        origin: baseUrl,
      };
      this.accepted = [...clients.values()].map((client) => client.userPoolClientId);
    } else {
      this.userPool = undefined;
      this.clients = new Map();
      this.tokenUrl = identity.tokenUrl;
      this.personClaims = undefined;
      this.signIn = undefined;
      this.issuer = identity.issuer;
      this.accepted = [...identity.audience];
    }
    this.dashboardClient = undefined;
    this.rotateRefreshTokens = identity.kind === 'cognito' && identity.threatProtection;

    // Read when the template is written: the dashboard's client, added after the API exists (its
    // distribution names the API), is accepted as well.
    this.authorizer = new HttpJwtAuthorizer('JwtAuthorizer', this.issuer, {
      jwtAudience: Lazy.list({ produce: () => this.audience }),
    });
  }

  /** The `aud` / `client_id` values the authorizer accepts: the app client ids with Cognito. */
  get audience(): string[] {
    return [...this.accepted];
  }

  /**
   * The dashboard's app client, made in `scope` (the dashboard's own nested stack) for the pool of
   * this stack, returning to `dashboardUrl`; the authorizer accepts its tokens.
   */
  dashboardClientFor(scope: Construct, dashboardUrl: string): UserPoolClient {
    if (!this.userPool) throw new Error('The dashboard signs people in with Cognito: this stage has no user pool');
    if (this.dashboardClient) throw new Error('The dashboard has its client already');
    this.dashboardClient = createDashboardClient(scope, this.userPool, dashboardUrl, this.rotateRefreshTokens);
    this.accepted.push(this.dashboardClient.userPoolClientId);
    return this.dashboardClient;
  }

  private createUserPool(settings: StageSettings, identity: CognitoIdentitySettings) {
    const userPool = new UserPool(this, 'UserPool', {
      userPoolName: `breb-merchant-api-${settings.name}`,
      // The platforms' machines, and their staff for the dashboard: nobody signs up, an operator
      // creates each person (docs/dashboard.md) and resets a forgotten password.
      selfSignUpEnabled: false,
      accountRecovery: AccountRecovery.NONE,
      // Plus, with threat protection enforcing, where the stage asks it (production): sign-ins from
      // compromised credentials or risky contexts are blocked, others challenged.
      featurePlan: identity.threatProtection ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      ...(identity.threatProtection
        ? { standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION }
        : {}),
      // Whose data a person works on, and how much they may do: set by an operator, read by the
      // pre-token-generation trigger, writable by no app client.
      customAttributes: {
        [PERSON_ATTRIBUTES.tenant]: new StringAttribute({ minLen: 1, maxLen: 128, mutable: true }),
        [PERSON_ATTRIBUTES.access]: new StringAttribute({ minLen: 1, maxLen: 16, mutable: true }),
      },
      // People handle payments data: long passwords and a second factor (an authenticator app).
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
    if (!identity.threatProtection) {
      NagSuppressions.addResourceSuppressions(userPool, [
        {
          id: 'AwsSolutions-COG8',
          reason:
            "The Plus tier's threat protection guards people's sign-ins on production; on this stage people " +
            'are a few testers, created one by one by an operator, with a second factor required.',
        },
      ]);
    }

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
      const granted = scopesFor(client.access);
      const oauthScopes = granted.map((scope) => OAuthScope.resourceServer(resourceServer, scopes.get(scope)!));
      clients.set(client.name, this.createClient(userPool, client, oauthScopes));
    }

    return { userPool, clients, baseUrl: domain.baseUrl() };
  }

  /** The trigger that gives a person's tokens their tenant and scopes (functions/add-person-claims.ts). */
  private createPersonClaims(userPool: UserPool, functions: SharedFunctionProps): ServiceFunction {
    const trigger = new ServiceFunction(this, personClaimsTrigger.name, {
      ...functions,
      definition: personClaimsTrigger,
      description: "Adds a person's tenant and scopes to their tokens (Cognito pre-token generation)",
      // Cognito waits five seconds for a trigger.
      timeout: Duration.seconds(5),
    });
    userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, trigger.function, LambdaVersion.V2_0);
    return trigger;
  }

  private createClient(userPool: UserPool, client: AppClientSettings, scopes: OAuthScope[]): UserPoolClient {
    return userPool.addClient(`Client-${client.name}`, {
      userPoolClientName: client.name,
      // A confidential client: the secret never leaves Cognito except to an operator who reads it.
      generateSecret: true,
      oAuth: { flows: { clientCredentials: true }, scopes },
      // Client credentials only: no password, SRP or custom sign-in (Cognito's defaults) on a machine's
      // client. Cognito keeps one flow at least: refresh, which client credentials never issue a token for.
      authFlows: { userPassword: false, userSrp: false, custom: false },
      accessTokenValidity: ACCESS_TOKEN_VALIDITY,
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
  }
}

/**
 * The dashboard's app client: public (no secret: a browser cannot keep one), the authorization
 * code flow only, back to the dashboard's address only. Its tokens ask only `openid`: the trigger
 * gives them the person's scopes. It may write none of the person's custom attributes, so nobody
 * changes their own tenant or access.
 */
function createDashboardClient(
  scope: Construct,
  userPool: UserPool,
  dashboardUrl: string,
  rotateRefreshTokens: boolean,
): UserPoolClient {
  return new UserPoolClient(scope, 'Client-dashboard', {
    userPool,
    userPoolClientName: 'dashboard',
    generateSecret: false,
    // The hosted sign-in (authorization code with PKCE) and refresh only: no SRP nor password flow,
    // whose tokens would come without PKCE. With rotation, refresh goes through its own API.
    authFlows: { userPassword: false, userSrp: false, custom: false },
    ...(rotateRefreshTokens ? { refreshTokenRotationGracePeriod: REFRESH_ROTATION_GRACE } : {}),
    oAuth: {
      flows: { authorizationCodeGrant: true },
      scopes: [OAuthScope.OPENID],
      callbackUrls: [dashboardUrl],
      logoutUrls: [dashboardUrl],
    },
    supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
    // Display preferences only, named one by one: never `custom:tenant` nor `custom:access`.
    writeAttributes: new ClientAttributes().withStandardAttributes({ locale: true, timezone: true }),
    accessTokenValidity: PERSON_TOKEN_VALIDITY,
    idTokenValidity: PERSON_TOKEN_VALIDITY,
    // The dashboard keeps no refresh token (its token lives in memory only); Cognito's shortest.
    refreshTokenValidity: Duration.hours(1),
    enableTokenRevocation: true,
    preventUserExistenceErrors: true,
  });
}
