/**
 * Runtime settings of a function, read from its environment. The CDK stack sets these variables
 * from the stage settings (infra/stages.ts); the local runtime sets them from its own options.
 */
export const ENV = {
  tableName: 'TABLE_NAME',
  stage: 'STAGE',
  sandboxEnabled: 'SANDBOX_ENABLED',
  participantName: 'PARTICIPANT_NAME',
  participantNit: 'PARTICIPANT_NIT',
  /** Overrides the DynamoDB endpoint: DynamoDB Local, LocalStack (http://localhost:4566). */
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  awsEndpoint: 'AWS_ENDPOINT_URL',
} as const;

export interface RuntimeConfig {
  readonly tableName: string;
  readonly stage: string;
  readonly sandboxEnabled: boolean;
  readonly participant: { readonly name: string; readonly nit: string };
  readonly dynamodbEndpoint: string | undefined;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export function readRuntimeConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  return {
    tableName: required(ENV.tableName),
    stage: env[ENV.stage] ?? 'local',
    sandboxEnabled: env[ENV.sandboxEnabled] === 'true',
    participant: {
      name: env[ENV.participantName] ?? 'Banco Patrocinador Sandbox',
      nit: env[ENV.participantNit] ?? '860000001',
    },
    dynamodbEndpoint: env[ENV.dynamodbEndpoint] || env[ENV.awsEndpoint] || undefined,
  };
}
