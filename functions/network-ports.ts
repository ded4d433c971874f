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
import { fetchConnector } from '../shared/data/network-connector';
import { networkSecrets } from '../shared/data/network-secret';
import { readNetwork } from '../shared/runtime/config';
import { sandboxDirectoryKeyRequest } from '../shared/schemas/generated/keys';

/** The connector at `url`, signing with the stage's connector secrets. */
export const connectorClient = (url: string): ConnectorClient => ({
  transport: fetchConnector,
  url,
  secrets: () => networkSecrets(),
  nowSeconds: () => Math.floor(Date.now() / 1000),
});

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
