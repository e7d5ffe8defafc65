import type { CheckReadiness } from '../../../application';
import type { HealthJson } from '../presenters';
import { HttpRequestError } from '../request-errors';

/** Liveness says only that the process answers; readiness asks the storage. */
export class HealthController {
  constructor(private readonly checkReadiness: CheckReadiness) {}

  async alive(): Promise<HealthJson> {
    return { status: 'ok' };
  }

  async ready(): Promise<HealthJson> {
    const readiness = await this.checkReadiness.execute();
    if (!readiness.ready) throw new HttpRequestError(503, `not ready: ${readiness.reason}`);
    return { status: 'ready' };
  }
}
