/**
 * Cognito's pre-token-generation trigger (event version 2) of the dashboard's sign-in. A person's
 * access token then carries what the API needs, as the local issuer's does: `tenant`, the platform
 * (a machine app client id) whose data the person works on, and the person's scopes, every scope
 * for `full` access and the read scopes otherwise; any other `breb/` scope is taken out. The ID token
 * gets `tenant` too. A person without a tenant gets no token at all: Cognito fails the sign-in, so
 * that no person's token falls back to the dashboard's own client id as its tenant (the API takes
 * `client_id` when there is no `tenant`). Only an operator sets the attributes: the dashboard's app
 * client may write none of them.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { allScopes, scopesFor } from './routes';
import { PERSON_ATTRIBUTES } from './triggers';

/** Cognito names a custom attribute `custom:<name>` in the event. */
const attribute = (event: PreTokenGenerationV2TriggerEvent, name: string): string | undefined =>
  event.request.userAttributes[`custom:${name}`];

export async function handler(event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> {
  const tenant = attribute(event, PERSON_ATTRIBUTES.tenant)?.trim();
  // The app client the person signs in through is never a tenant: its id is no platform's.
  if (!tenant || tenant === event.callerContext.clientId) {
    // Cognito shows this on its sign-in page; it names no person and no attribute value.
    throw new Error('This person works for no platform yet: ask an operator to set their tenant');
  }
  const granted = scopesFor(attribute(event, PERSON_ATTRIBUTES.access) === 'full' ? 'full' : 'read');
  event.response = {
    claimsAndScopeOverrideDetails: {
      accessTokenGeneration: {
        claimsToAddOrOverride: { tenant },
        scopesToAdd: [...granted],
        scopesToSuppress: allScopes.filter((scope) => !granted.includes(scope)),
      },
      idTokenGeneration: { claimsToAddOrOverride: { tenant } },
    },
  };
  return event;
}
