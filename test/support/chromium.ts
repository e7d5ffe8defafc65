import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
