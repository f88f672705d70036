// What the browser tests are made of: counted checks that print what
// failed and go on, and the headless Chromium they drive.
import { chromium } from 'playwright-core';
import { rmSync } from 'node:fs';

let passed = 0;
let failed = 0;

// Counts a check; a failed one is printed at once, the test goes on.
export function check(condition, what) {
  if (condition) {
    passed += 1;
  } else {
    failed += 1;
    console.error(`FAILED: ${what}`);
  }
}

// A check that `actual` equals `expected` (as JSON), printing both when they differ.
export function equal(actual, expected, what) {
  const same = JSON.stringify(actual) === JSON.stringify(expected);
  check(same, same ? what : `${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

// Prints the count and exits: 0 only if every check passed.
export function finish(name) {
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// Debian's chromium (or $CHROMIUM), headless, without anything that phones home.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// The checks every page ends with: no hostile team name ran as HTML (the fixtures' names set
// window.__xss if they do), and nothing went wrong on the page (`problems` the test collected).
export async function checkNothingRan(page, problems) {
  check(await page.evaluate(() => window.__xss === undefined), 'no team name ran as HTML');
  equal(problems, [], 'no dialog, page error or console error');
}

// Closes the browser, stops the dealer and removes the test's folder, whatever happened.
export async function cleanUp(browser, server, work) {
  await browser.close();
  server.kill();
  rmSync(work, { recursive: true, force: true });
}


export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The event's JSON API for a test: `base()` gives the server's address (a function: a
// restarted server listens on a new port). `api(path)` answers `{status, body}`;
// `organise(method, path, body)` sends the organiser's `token`; `until(path, done, what)` polls
// until `done(body)`, for at most five minutes (a busy machine plays slowly).
export function eventClient(base, token) {
  const api = async (path, init) => {
    const response = await fetch(`${base()}${path.replace(/^\//, '')}`, init);
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const organise = (method, path, body) => api(path, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
  });
  async function until(path, done, what) {
    for (let i = 0; i < 3000; i++) {
      const { status, body } = await api(path);
      if (status === 200 && done(body)) return body;
      await sleep(100);
    }
    throw new Error(`${what}: not reached`);
  }
  return { api, organise, until };
}
