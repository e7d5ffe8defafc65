import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { type RunningService, startService } from './service-process';

function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(candidate)) {
    throw new Error(`No Chromium at ${candidate}: run scripts/ensure-chromium.sh (npm test does) or set CHROMIUM_PATH`);
  }
  return candidate;
}

/** Headless Chromium for the browser tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    // This machine has no outside network: keep Chromium from trying to reach Google's hosts.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a browser test file drives: the built service on the in-memory store, and Chromium. */
export interface ServiceInChromium {
  service: RunningService;
  browser: Browser;
}

/**
 * Starts the service and Chromium before the file's tests and stops both after; the fields
 * are set once `beforeAll` has run.
 */
export function useServiceInChromium(): ServiceInChromium {
  const subject = {} as ServiceInChromium;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-browser-'));
  beforeAll(async () => {
    subject.service = await startService({ DATABASE_URL: 'memory:' }, workDir);
    subject.browser = await launchChromium();
  });
  afterAll(async () => {
    await subject.browser?.close();
    subject.service?.process.kill('SIGTERM');
    await subject.service?.exited;
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  return subject;
}
