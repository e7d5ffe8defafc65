import setupPostgres from './postgres-global-setup';
import { clearRecordedScenarios } from './reliability-report';

/** The reliability run: a PostgreSQL server like the other projects, and an empty results folder. */
export default async function setup(globalConfig: { maxWorkers: number }): Promise<void> {
  clearRecordedScenarios();
  await setupPostgres(globalConfig);
}
