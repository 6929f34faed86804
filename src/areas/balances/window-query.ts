import type { FastifyReply } from 'fastify';
import { z } from 'zod';

// Interim plain zod until src/http/validation lands (pydantic-exact 422 bodies).
export const windowQuery = {
  start_date: z.iso.date().optional().meta({
    description:
      'First day of the window (YYYY-MM-DD); default: the same date a year before end_date, plus one day.',
  }),
  end_date: z.iso.date().optional().meta({
    description: 'Last day of the window (YYYY-MM-DD); omitted or in the future -> today.',
  }),
};

export function startAfterEndError(reply: FastifyReply, startDate: string | undefined) {
  return reply.code(422).send({
    detail: [
      {
        type: 'value_error',
        loc: ['query', 'start_date'],
        msg: 'Value error, start_date must be on or before end_date',
        input: startDate,
        ctx: { error: {} },
      },
    ],
  });
}
