/**
 * The names of the schemas: every export of this folder's modules whose name ends in `Schema`. The
 * route table names each route's body, query and answer schemas by these names, so a misspelt or
 * removed schema fails the type check; the OpenAPI generator (tools/openapi/) finds them by the same
 * names. A new module of schemas is added to `Modules` once; its exports are then named at once.
 */
import type * as accounts from './accounts';
import type * as audit from './audit';
import type * as common from './common';
import type * as customers from './customers';
import type * as events from './events';
import type * as inboundApproval from './inbound-approval';
import type * as keys from './keys';
import type * as ledger from './ledger';
import type * as lists from './lists';
import type * as payments from './payments';
import type * as problem from './problem';
import type * as qrcodes from './qrcodes';
import type * as reconciliations from './reconciliations';
import type * as recipients from './recipients';
import type * as refunds from './refunds';
import type * as reports from './reports';
import type * as sponsorBank from './sponsor-bank';
import type * as webhooks from './webhooks';

type Modules = typeof accounts &
  typeof audit &
  typeof common &
  typeof customers &
  typeof events &
  typeof inboundApproval &
  typeof keys &
  typeof ledger &
  typeof lists &
  typeof payments &
  typeof problem &
  typeof qrcodes &
  typeof reconciliations &
  typeof recipients &
  typeof refunds &
  typeof reports &
  typeof sponsorBank &
  typeof webhooks;

export type SchemaName = Extract<keyof Modules, `${string}Schema`>;
