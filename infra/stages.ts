/**
 * Stage settings in one typed place. `cdk deploy -c stage=<name>` picks one; `local` targets
 * LocalStack. Every difference between environments lives here, nowhere else.
 */
export type StageName = 'local' | 'dev' | 'staging' | 'prod';

export interface StageSettings {
  readonly name: StageName;
  /** Sandbox operator routes (/sandbox/...) are deployed only where this is true. */
  readonly sandboxEnabled: boolean;
  /** The sponsor bank: the participant that holds our merchants' accounts. */
  readonly participant: { readonly name: string; readonly nit: string };
  /** JWT authorizer: who issues tokens and which client ids / audiences are accepted. */
  readonly auth: { readonly issuer: string; readonly audience: readonly string[] };
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Production data survives stack deletion and mistakes. */
  readonly retainData: boolean;
}

const participant = { name: 'Banco Patrocinador S.A.', nit: '860000001' };

export const stages: Readonly<Record<StageName, StageSettings>> = {
  local: {
    name: 'local',
    sandboxEnabled: true,
    participant,
    auth: {
      issuer: 'http://127.0.0.1:3000',
      audience: ['sandbox-client-a', 'sandbox-client-b', 'sandbox-client-readonly'],
    },
    logLevel: 'DEBUG',
    retainData: false,
  },
  dev: {
    name: 'dev',
    sandboxEnabled: true,
    participant,
    auth: { issuer: 'https://issuer.dev.example.com', audience: ['breb-dev'] },
    logLevel: 'DEBUG',
    retainData: false,
  },
  staging: {
    name: 'staging',
    sandboxEnabled: true,
    participant,
    auth: { issuer: 'https://issuer.staging.example.com', audience: ['breb-staging'] },
    logLevel: 'INFO',
    retainData: true,
  },
  prod: {
    name: 'prod',
    sandboxEnabled: false,
    participant,
    auth: { issuer: 'https://issuer.example.com', audience: ['breb-prod'] },
    logLevel: 'INFO',
    retainData: true,
  },
};

export function stageSettings(name: string | undefined): StageSettings {
  const stage = stages[(name ?? 'dev') as StageName];
  if (!stage) throw new Error(`Unknown stage "${name}": use one of ${Object.keys(stages).join(', ')}`);
  return stage;
}
