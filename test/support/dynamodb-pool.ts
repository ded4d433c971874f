/**
 * The test run's DynamoDB Locals, kept fresh. DynamoDB Local slows down with every stream record it
 * holds, of every table it ever had, dropped ones included: after 40 tables of 300 writes each, a
 * transaction took 4 times as long, and dropping the tables or turning their streams off gave
 * nothing back. Over a whole run that made late files 5 to 10 times slower than alone. So each Jest
 * worker gets a new DynamoDB Local once its files have made a few tables: a spare is started while
 * the worker's tests run, and handed over at the start of a file (never during one).
 *
 * The pool lives in the process of the global setup; workers reach it through a small HTTP server on
 * loopback (the address in TEST_DYNAMODB_POOL), since Jest gives each file its own copy of the
 * environment: `POST /tables/<worker>` counts a table made, `POST /fresh/<worker>` answers the
 * endpoint the worker's next file uses.
 */
import { createServer, type Server } from 'node:http';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

/** Tables a DynamoDB Local serves before its worker's next file gets a new one. */
export const TABLES_PER_DYNAMODB_LOCAL = 3;

interface WorkerDatabase {
  current: DynamoDbLocal;
  /** Started ahead, so that a file never waits for Java to start. */
  spare: Promise<DynamoDbLocal> | undefined;
  tablesMade: number;
}

export class DynamoDbPool {
  private readonly workers = new Map<number, Promise<WorkerDatabase>>();
  private readonly retired: Promise<void>[] = [];
  private server: Server | undefined;
  /** DynamoDB Locals started in the run, spares included (the teardown prints it). */
  started = 0;

  /** Serves the workers' requests; answers the address to put in TEST_DYNAMODB_POOL. */
  async listen(): Promise<string> {
    const server = createServer((request, response) => {
      const [, action, worker] = /^\/(tables|fresh)\/(\d+)$/.exec(request.url ?? '') ?? [];
      if (request.method !== 'POST' || !action) {
        response.writeHead(404, { connection: 'close' }).end();
        return;
      }
      const answer = action === 'tables' ? this.tableMade(Number(worker)) : this.fresh(Number(worker));
      // Each request on a connection of its own: a kept-alive one that the server times out between two
      // files was reused by fetch, which then failed with "other side closed".
      const headers = { 'content-type': 'text/plain', connection: 'close' };
      answer.then(
        (body) => response.writeHead(200, headers).end(body),
        (error: Error) => response.writeHead(500, headers).end(error.stack),
      );
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  /** Starts the first DynamoDB Local of `worker` now (the global setup warms every worker's). */
  async start(worker: number): Promise<string> {
    return (await this.of(worker)).current.endpoint;
  }

  private of(worker: number): Promise<WorkerDatabase> {
    let database = this.workers.get(worker);
    if (!database) {
      database = this.startOne().then((current) => ({ current, spare: undefined, tablesMade: 0 }));
      this.workers.set(worker, database);
    }
    return database;
  }

  private startOne(): Promise<DynamoDbLocal> {
    this.started += 1;
    return startDynamoDbLocal();
  }

  private async tableMade(worker: number): Promise<string> {
    const database = await this.of(worker);
    database.tablesMade += 1;
    // The spare starts as soon as it will be needed, while this file runs.
    if (database.tablesMade >= TABLES_PER_DYNAMODB_LOCAL) database.spare ??= this.startOne();
    return database.current.endpoint;
  }

  /** The endpoint of the worker's next file: a new DynamoDB Local once the current one made enough tables. */
  private async fresh(worker: number): Promise<string> {
    const database = await this.of(worker);
    if (database.tablesMade >= TABLES_PER_DYNAMODB_LOCAL) {
      const old = database.current;
      database.current = await (database.spare ?? this.startOne());
      database.spare = undefined;
      database.tablesMade = 0;
      this.retired.push(old.stop());
    }
    return database.current.endpoint;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    const databases = await Promise.all(this.workers.values());
    await Promise.all([
      ...this.retired,
      ...databases.flatMap(({ current, spare }) => [current.stop(), spare?.then((local) => local.stop())]),
    ]);
  }
}
