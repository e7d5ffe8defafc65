import type { CheckReadiness, ReadinessNeed } from '../../../application';
import type { HealthJson, ReadinessJson } from '../presenters';
import { HttpRequestError } from '../request-errors';

/** Liveness says only that the process answers; readiness asks the storage. */
export class HealthController {
  constructor(private readonly checkReadiness: CheckReadiness) {}

  async alive(): Promise<HealthJson> {
    return { status: 'ok' };
  }

  /** `reads`: ready while reads are served (writes may be unavailable); `writes`: only while writes are too. */
  async ready(need: ReadinessNeed): Promise<ReadinessJson> {
    const readiness = await this.checkReadiness.execute(need);
    if (!readiness.ready) throw new HttpRequestError(503, `not ready: ${readiness.reason}`);
    return { status: 'ready', writes: readiness.writes ? 'available' : 'unavailable' };
  }
}
