/**
 * List shards (docs/pagination.md, "A big client's lists, in shards"; docs/scale.md): a list partition takes about 1,000
 * write units a second, and every payment of a client, and every delivery of its events, lands in its
 * client's one payment and delivery list partitions. A client above some 150 payments a second gets
 * those lists split in shards: each item goes to the shard its id hashes to, and a page reads every
 * shard and merges them (shared/data/list-visits.ts). Sharding costs reads (a query a shard for every
 * page), so it is a stage setting per client (LIST_SHARDS; infra/stages.ts, listShards), not a default.
 *
 * A client's setting is a history of layouts, each from a time on: an item is placed by the layout of
 * its creation (its `created_at` and id decide its shard for life, so an update or a delete finds the
 * same partitions and counters again), and a list reads as many shards as any layout had. So a layout
 * can be added to a running stage: the items before it stay in shard 0, the list partition they
 * always had, and a layout dated after the deploy that brings it lets every function know of the new
 * shards before any item is written to them.
 */
import { createHash } from 'node:crypto';
import { ENV } from '../runtime/config';

/** The collections whose lists grow with a client's payments: the only ones a layout may shard. */
export const SHARDABLE_COLLECTIONS = ['PAYMENT', 'DELIVERY'] as const;
export type ShardableCollection = (typeof SHARDABLE_COLLECTIONS)[number];

/**
 * The most shards of a list: page 1 reads every shard's counter (4 items each) in one BatchGetItem of
 * at most 100 keys, beside the list's parent.
 */
export const MAX_LIST_SHARDS = 24;

/** A layout of a client's lists from `from` on: the shards of each collection it splits (others: 1). */
export interface ListLayout {
  readonly from: string;
  readonly shards: Readonly<Partial<Record<ShardableCollection, number>>>;
}

/** Every client's layouts, oldest first: LIST_SHARDS's JSON, `{"<client>": [ListLayout, ...]}`. */
export type ListShardSettings = Readonly<Record<string, readonly ListLayout[]>>;

/** As `created_at` is written (milliseconds and Z), so that the two compare as the times they are. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The settings, checked: a mistake here would misplace items, so it fails every function's start. */
export function parseListShards(text: string | undefined): ListShardSettings {
  if (text === undefined || text.trim() === '') return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('LIST_SHARDS must be a JSON object of client ids to their list layouts');
  }
  for (const [client, layouts] of Object.entries(parsed)) {
    if (!Array.isArray(layouts)) throw new Error(`LIST_SHARDS of ${client} must be an array of layouts`);
    let previous = '';
    for (const layout of layouts as ListLayout[]) {
      if (typeof layout?.from !== 'string' || !ISO_TIME.test(layout.from) || layout.from <= previous) {
        throw new Error(
          `LIST_SHARDS of ${client}: each layout needs a "from" time (YYYY-MM-DDTHH:MM:SS.mmmZ), later than the one before`,
        );
      }
      previous = layout.from;
      if (typeof layout.shards !== 'object' || layout.shards === null) {
        throw new Error(`LIST_SHARDS of ${client}: each layout needs its "shards" by collection`);
      }
      for (const [collection, shards] of Object.entries(layout.shards)) {
        if (!(SHARDABLE_COLLECTIONS as readonly string[]).includes(collection)) {
          throw new Error(`LIST_SHARDS of ${client}: ${collection} is not a collection that can be sharded`);
        }
        if (!Number.isInteger(shards) || shards < 1 || shards > MAX_LIST_SHARDS) {
          throw new Error(`LIST_SHARDS of ${client}: ${collection} needs 1 to ${MAX_LIST_SHARDS} shards`);
        }
      }
    }
  }
  return parsed as ListShardSettings;
}

/** The settings as LIST_SHARDS carries them, checked: a stage with a mistake in them fails to synthesize. */
export const formatListShards = (settings: ListShardSettings): string => {
  const text = JSON.stringify(settings);
  parseListShards(text);
  return text;
};

let parsedFrom: { text: string | undefined; settings: ListShardSettings } | undefined;

/** This process's settings, parsed again only when the variable changes (tests set it per case). */
function settings(): ListShardSettings {
  const text = process.env[ENV.listShards];
  if (parsedFrom && parsedFrom.text === text) return parsedFrom.settings;
  parsedFrom = { text, settings: parseListShards(text) };
  return parsedFrom.settings;
}

const shardsIn = (layout: ListLayout, collection: string): number =>
  layout.shards[collection as ShardableCollection] ?? 1;

/** How many shards a list of the client's collection reads: the most any of its layouts had. */
export function shardsRead(tenant: string, collection: string): number {
  return (settings()[tenant] ?? []).reduce((most, layout) => Math.max(most, shardsIn(layout, collection)), 1);
}

/** The shard of an item of the client's collection: its id's, among the shards of its creation's layout. */
export function shardOf(tenant: string, collection: string, id: string, createdAt: string): number {
  const layout = (settings()[tenant] ?? []).findLast((candidate) => candidate.from <= createdAt);
  const shards = layout ? shardsIn(layout, collection) : 1;
  return shards === 1 ? 0 : createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
}
