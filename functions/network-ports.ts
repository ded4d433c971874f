/**
 * The stage's network, composed for the handlers that reach it (not a handler itself): the sponsor
 * bank's connector as a signed HTTP client, and the directory resolve-key and validate-key read, our
 * table on a sandbox stage or the network's on a connector stage (docs/network.md). Read at each use,
 * not once per process: the local runtime's tests start it again with another network.
 */
import { systemNewRecords } from '../shared/domain/clock';
import type { ConnectorClient } from '../shared/domain/connector';
import { tableLookup, type DirectoryLookup } from '../shared/domain/directory';
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
