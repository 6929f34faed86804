/** The small part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Ends the run when reached, and then the duration is ignored. */
    amount?: number;
    /** With duration: whichever comes first. */
    maxOverallRequests?: number;
    timeout?: number;
    pipelining?: number;
    requests?: Array<
      RequestData & {
        /** `context` is the connection's own, kept from one of its requests to the next. */
        setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
        onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
      }
    >;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number };
  }

  interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(
    options: Options,
    done: (error: Error | null, result: Result) => void,
  ): Instance;
  export default autocannon;
}
