import { z } from 'zod';

/** The body of every error answer, as documented. */
export const failureJson = z
  .object({
    statusCode: z.literal(10001).meta({ example: 10001 }),
    data: z.null(),
    message: z.string().meta({
      description: 'What went wrong, naming the field for a rejected body',
      example: 'title: must be at most 200 characters',
    }),
  })
  .meta({
    id: 'Failure',
    example: { statusCode: 10001, data: null, message: 'title: must be at most 200 characters' },
  });
