/**
 * The stage's network, composed for the handlers that reach it (not a handler itself): the sponsor
 * bank's connector as a signed HTTP client, the directory resolve-key and validate-key read, and the
 * publisher our keys' changes tell: our table on a sandbox stage, the network's directory on a
 * connector stage (docs/network.md). Read at each use, not once per process: the local runtime's
 * tests start it again with another network.
 */
import { systemNewRecords } from '../shared/domain/clock';
import type { ConnectorClient } from '../shared/domain/connector';
import { tableLookup, type DirectoryLookup } from '../shared/domain/directory';
import { connectorPublisher, tableIsTheDirectory, type KeyPublisher } from '../shared/domain/key-publishing';
import { networkDirectory } from '../shared/domain/network-directory';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { parseJwks, verifyRequest, type Jwks } from '../shared/domain/message-signatures';
import { verifySignedMessage } from '../shared/domain/webhook-signature';
import { fetchConnector } from '../shared/data/network-connector';
import { networkSecrets, networkSigningKeys } from '../shared/data/network-secret';
import type { NetworkSignatureCheck, ReceivedNetworkRequest } from '../shared/http/network-handler';
import { ENV, readNetwork } from '../shared/runtime/config';
import { sandboxDirectoryKeyRequest } from '../shared/schemas/generated/keys';
import { transferOrder } from '../shared/schemas/generated/network';
import type { TransferOrder } from '../shared/domain/transfer-orders';
import { logger } from '../shared/http/logger';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Whether `order` is what the connector's OpenAPI document publishes (TransferOrder: the generated
 * validator of the very schema the document is built from). One that is not is a bug of ours, never
 * sent: logged as an error with the schema's complaints (paths and keywords, no values).
 */
export function isPublishedOrder(order: TransferOrder): boolean {
  if (transferOrder(order)) return true;
  logger.error("Transfer order not sent: it is not the published schema's", {
    transfer_id: order.transfer_id,
    kind: order.kind,
    errors: (transferOrder.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
    ),
  });
  return false;
}

/** The connector at `url`, each request signed with our newest Ed25519 key. */
export const connectorClient = (url: string): ConnectorClient => ({
  transport: fetchConnector,
  url,
  signingKey: async () => (await networkSigningKeys())[0]!,
  nowSeconds,
});

let bankKeys: { readonly text: string; readonly jwks: Jwks } | undefined;

/** The bank's JWKS (NETWORK_BANK_KEYS), parsed once per value. */
function parsedBankKeys(text: string): Jwks {
  if (bankKeys?.text !== text) bankKeys = { text, jwks: parseJwks(text) };
  return bankKeys.jwks;
}

/**
 * Whether the connector signed a request to one of our /network/ routes: on a connector stage the
 * bank's RFC 9421 signature by one of its published keys. The sandbox's simulator, on a stage that has
 * one, calls the routes in process with the Standard Webhooks signature of the stage's own secret,
 * which no bank holds: the only signature a sandbox stage takes, and one more a local connector stage
 * takes (production has no sandbox, so only the bank's).
 */
export async function verifyNetworkRequest(request: ReceivedNetworkRequest): Promise<NetworkSignatureCheck> {
  const network = readNetwork(process.env);
  if (network.kind === 'connector') {
    const verdict = verifyRequest(request, parsedBankKeys(network.bankKeys), nowSeconds());
    if (verdict.valid) return { valid: true, requestId: verdict.nonce };
    const simulated = process.env[ENV.sandboxEnabled] === 'true' && request.headers['webhook-signature'] !== undefined;
    if (!simulated) return verdict;
  }
  const check = verifySignedMessage(request.headers, request.body, await networkSecrets(), nowSeconds());
  return check.valid ? { valid: true, requestId: request.headers['webhook-id']! } : check;
}

const sandboxDirectory = tableLookup(dynamoDirectory);

export const stageDirectory: DirectoryLookup = {
  find(key, requestedBy) {
    const network = readNetwork(process.env);
    const directory =
      network.kind === 'sandbox'
        ? sandboxDirectory
        : networkDirectory({
            ...systemNewRecords,
            connector: connectorClient(network.url),
            own: dynamoDirectory,
            // The answer has the shape of a directory entry as the sandbox's operator adds one.
            isEntry: sandboxDirectoryKeyRequest,
          });
    return directory.find(key, requestedBy);
  },
};

/** Where our merchants' keys are published: nowhere but our table on a sandbox stage. */
const publisher = (): KeyPublisher => {
  const network = readNetwork(process.env);
  return network.kind === 'sandbox'
    ? tableIsTheDirectory
    : connectorPublisher({ ...systemNewRecords, connector: connectorClient(network.url), own: dynamoDirectory });
};

export const stagePublisher: KeyPublisher = {
  publish: (entry) => publisher().publish(entry),
  setStatus: (key, status) => publisher().setStatus(key, status),
  withdraw: (key) => publisher().withdraw(key),
};
