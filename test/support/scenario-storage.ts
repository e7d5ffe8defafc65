import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from './test-databases';

/** A database for one process-level scenario, and a working directory for the service. */
export interface ScenarioStorage {
  name: 'SQLite' | 'PostgreSQL';
  /** DATABASE_URL for the service. */
  url: string;
  workDir: string;
  remove(): Promise<void>;
}

export async function openScenarioStorage(name: ScenarioStorage['name']): Promise<ScenarioStorage> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-reliability-'));
  const removeDir = () => fs.rmSync(workDir, { recursive: true, force: true });
  if (name === 'SQLite') {
    return { name, url: `sqlite:${path.join(workDir, 'blog.sqlite')}`, workDir, remove: async () => removeDir() };
  }
  const database = await createPostgresDatabase();
  return {
    name,
    url: database.url,
    workDir,
    remove: async () => {
      await database.drop();
      removeDir();
    },
  };
}
