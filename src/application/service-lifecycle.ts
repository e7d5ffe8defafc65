/**
 * Whether the service has begun to stop. The process flips it on SIGTERM/SIGINT; readiness
 * (CheckReadiness) and the HTTP layer (Connection: close) read it. One instance per process.
 */
export class ServiceLifecycle {
  private shuttingDown = false;

  /** From now on the service reports not ready, so that load balancers stop sending traffic. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
