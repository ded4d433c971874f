/** The part of autocannon's API the load run uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Builds the next request of a client from the defaults; called once per request. */
    setupRequest?: (request: AutocannonRequest, context: object) => AutocannonRequest;
    /** Called with each answer, before the client's next request is built. */
    onResponse?: (status: number, body: string, context: object) => void;
  }

  /** One connection of the run, which sends its requests one after the other. */
  export interface AutocannonClient extends EventEmitter {
    setRequests(requests: AutocannonRequest[]): void;
    /** `response`: (status, bytes, milliseconds from the first byte sent to the last received). */
    on(event: 'response', listener: (status: number, bytes: number, responseTimeMs: number) => void): this;
  }

  export interface AutocannonOptions {
    url: string;
    connections: number;
    /** Requests to send in all, whatever the time they take. */
    amount: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    setupClient?: (client: AutocannonClient) => void;
  }

  export interface AutocannonResult {
    /** Seconds the run took. */
    duration: number;
    errors: number;
    timeouts: number;
  }

  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
