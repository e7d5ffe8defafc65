import { healthJson, readinessJson } from './presenters';
import { defineRoute, type RouteDefinition } from './route-definition';
import type { HttpControllers } from './routes';

/** Probes for orchestrators: never rate limited, never behind the token. */
export function probeRouteTable({ health }: HttpControllers): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      operationId: 'checkLiveness',
      group: 'Operations',
      summary: 'The process is alive',
      description: 'Liveness: answers 200 while the process runs.',
      write: false,
      status: 200,
      data: healthJson,
      handle: () => health.alive(),
    }),
    defineRoute({
      method: 'get',
      path: '/ready',
      operationId: 'checkReadiness',
      group: 'Operations',
      summary: 'This instance can serve: reads at least; says whether writes can be served too',
      description:
        'Readiness for load balancers and Kubernetes: 200 while reads are served (by a replica when the primary is gone) and the service is not shutting down; `writes` says whether the primary takes writes. Each storage check gets 1 s.',
      write: false,
      status: 200,
      data: readinessJson,
      failures: [{ status: 503, when: 'no storage serves reads within 1 s, or the service is shutting down' }],
      handle: () => health.ready('reads'),
    }),
    defineRoute({
      method: 'get',
      path: '/ready/write',
      operationId: 'checkWriteReadiness',
      group: 'Operations',
      summary: 'This instance can serve writes',
      description:
        'The stricter readiness, for checks that route writes: 200 only while the primary answers within 1 s and takes writes (it is not read-only, and the breaker in front of it is closed), and the service is not shutting down.',
      write: false,
      status: 200,
      data: readinessJson,
      failures: [
        {
          status: 503,
          when: 'the primary does not answer within 1 s, is read-only or gone, or the service is shutting down',
        },
      ],
      handle: () => health.ready('writes'),
    }),
  ];
}
