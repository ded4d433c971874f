/**
 * The pre-token-generation trigger of the dashboard's sign-in on AWS (functions/add-person-claims.ts):
 * what it puts in a person's tokens, and that it gives the same scopes as the local issuer does for
 * the same person.
 */
import { allScopes, readScopes, scopesFor } from '../../functions/routes';
import { handler } from '../../functions/add-person-claims';
import { SANDBOX_PEOPLE } from '../../infra/local/people';
import { DASHBOARD_APP_CLIENT_ID, signInEvent } from '../support/cognito-events';

const writeScopes = allScopes.filter((scope) => !readScopes.includes(scope));

test('full access: the tenant in both tokens, every scope added, none taken out', async () => {
  const answer = await handler(signInEvent({ 'custom:tenant': 'platform-client-id', 'custom:access': 'full' }));
  expect(answer.response.claimsAndScopeOverrideDetails).toEqual({
    accessTokenGeneration: {
      claimsToAddOrOverride: { tenant: 'platform-client-id' },
      scopesToAdd: [...allScopes],
      scopesToSuppress: [],
    },
    idTokenGeneration: { claimsToAddOrOverride: { tenant: 'platform-client-id' } },
  });
});

test.each([
  ['read access', { 'custom:access': 'read' }],
  ['no access attribute', {}],
  ['an access value it does not know', { 'custom:access': 'FULL' }],
])('%s: the read scopes, every write scope taken out', async (_case, access) => {
  const answer = await handler(signInEvent({ 'custom:tenant': 'platform-client-id', ...access }));
  const accessToken = answer.response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
  expect(accessToken.scopesToAdd).toEqual([...readScopes]);
  expect(accessToken.scopesToSuppress).toEqual(writeScopes);
  expect(accessToken.claimsToAddOrOverride).toEqual({ tenant: 'platform-client-id' });
});

test.each([
  ['no tenant', {}],
  ['an empty tenant', { 'custom:tenant': '  ' }],
  ["the dashboard's own client id", { 'custom:tenant': DASHBOARD_APP_CLIENT_ID }],
])('%s: no token at all (the sign-in fails)', async (_case, attributes) => {
  await expect(handler(signInEvent({ 'custom:access': 'full', ...attributes }))).rejects.toThrow(
    'This person works for no platform yet: ask an operator to set their tenant',
  );
});

test.each(SANDBOX_PEOPLE.map((person) => [person.username, person] as const))(
  '%s: the scopes Cognito would give are the local issuer’s',
  async (_name, person) => {
    const answer = await handler(signInEvent({ 'custom:tenant': person.tenant, 'custom:access': person.access }));
    const accessToken = answer.response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
    expect(accessToken.scopesToAdd).toEqual([...scopesFor(person.access)]);
  },
);
