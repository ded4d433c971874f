/**
 * The functions Cognito calls, declared like the route and worker tables' entries: the stack creates
 * each with exactly these rights (none of the table's here). Nothing here imports handler code.
 */
import type { FunctionDefinition } from './routes';

/**
 * The pre-token-generation trigger of the dashboard's sign-in (add-person-claims.ts): it reads only
 * the event Cognito sends and its own settings.
 */
export const personClaimsTrigger: FunctionDefinition = {
  name: 'addPersonClaims',
  handler: 'add-person-claims',
  tableActions: [],
};

/** The user attributes a person of the dashboard carries, set by an operator (docs/dashboard.md). */
export const PERSON_ATTRIBUTES = {
  /** The client id of the platform the person works for: their tenant. */
  tenant: 'tenant',
  /** `full`: every scope of the route table; anything else, or nothing: the read scopes only. */
  access: 'access',
} as const;
