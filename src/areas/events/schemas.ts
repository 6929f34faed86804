/** The event stream's request headers and its events (docs/api.md, "GET /v2/users/events"). */
import { z } from 'zod';
import { USER_DATA_TABLES } from '../../contract/tables.ts';
import { streamedBody } from '../../http/serializer.ts';

const generation = (description: string) =>
  z.string().meta({ description, examples: ['5f1c0ffee0ddba11'] });

const count = (description: string) => z.int().min(0).meta({ description });

export const ChangedData = z
  .object({
    generation: generation('The generation now served, the event’s `id`.'),
    previous_generation: generation(
      'The generation served before, from which the counts run (on a resume, the `Last-Event-ID` sent).',
    ),
    transactions: z
      .object({
        added: count('Transactions a sync from `previous_generation` lists as added.'),
        modified: count('Transactions it lists as modified.'),
        removed: count('Transactions it lists as removed.'),
      })
      .meta({
        description:
          'The user’s transactions that changed, counted exactly as `GET /v2/users/transactions/sync` reports them from a cursor at `previous_generation` to `generation`.',
      }),
    tables: z.array(z.enum(USER_DATA_TABLES)).meta({
      description:
        'The user’s tables that changed, in the data contract’s order (never empty): `transactions` when a count is not zero; the others when a change set between the two generations changed a row of the user’s (one changed back later still counts).',
    }),
  })
  .meta({
    id: 'EventChanged',
    description:
      'The data of a `changed` event: a generation this server started to serve changed the user’s data. Sent once the server answers from it, so a sync sent on receipt sees the change.',
  });
export type ChangedData = z.infer<typeof ChangedData>;

export const RESET_REASONS = ['rebuild', 'restore', 'expired', 'unknown'] as const;

export const ResetData = z
  .object({
    generation: generation('The generation now served, the event’s `id`.'),
    reason: z.enum(RESET_REASONS).meta({
      description:
        '`rebuild`: a full build replaced the data; `restore`: the store went back (an earlier copy published again, change sets applied to one); `expired`: the generation the client knew is older than the change log kept; `unknown`: a `Last-Event-ID` that names no generation of the data served.',
    }),
  })
  .meta({
    id: 'EventReset',
    description:
      'The data of a `reset` event: the data served does not descend from what the client was told of (a sync cursor from then answers 410). Sync again without a cursor.',
  });
export type ResetData = z.infer<typeof ResetData>;

export const ReadyData = z
  .object({ generation: generation('The generation served, the event’s `id`.') })
  .meta({
    id: 'EventReady',
    description:
      'The data of the `ready` event, sent once when the stream opens, after any catch-up: the client is up to date with `generation`.',
  });
export type ReadyData = z.infer<typeof ReadyData>;

const event = <Name extends string, Data extends z.ZodType>(name: Name, data: Data) =>
  z.object({
    event: z.literal(name),
    id: generation('The generation the event brings the client to: its `Last-Event-ID` next.'),
    data,
  });

/** The stream as the document describes it: its events in order (its frames are SSE's). */
export const EventStream = streamedBody(
  z
    .array(
      z.discriminatedUnion('event', [
        event('changed', ChangedData),
        event('reset', ResetData),
        event('ready', ReadyData),
      ]),
    )
    .meta({
      description:
        'Server-sent events (WHATWG HTML), each `event: <name>`, `id: <generation>`, `data: <one line of JSON>` and a blank line; first `retry: 5000`, then any catch-up (`changed` or `reset`), `ready`, then an event per generation that changes the user’s data, and a `: keep-alive` comment after 15 s of silence. Ends after an hour, when the token is revoked or expires, and when the server shuts down: reconnect with `Last-Event-ID`.',
    }),
);

export const EventStreamHeaders = z.looseObject({
  'last-event-id': z.string().optional().meta({
    description:
      'The `id` of the last event received: a generation. Resumes the stream: one `changed` (when the user’s data changed since) or a `reset` (when the change log does not lead from it), then `ready`.',
  }),
});
