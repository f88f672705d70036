// The teams' colours as a projector shows them: the twelve colours of standings.js's
// teamColour, read from the page, must differ pairwise by a CIEDE2000 distance of at least
// MIN_DELTA_E (about twice what a room tells apart at a glance on a washed-out projector; the
// old palette's yellow and lime were 16.1 apart) and stand out from the pages' dark
// backgrounds by a WCAG contrast of at least MIN_CONTRAST (the ratio for text: a thin chart
// line needs it more than a swatch does). culori computes both.
import { differenceCiede2000, wcagContrast, formatHex } from 'culori';
import { check } from './harness.mjs';

export const MIN_DELTA_E = 25;
export const MIN_CONTRAST = 4.5;
const TEAMS = 12;

// Checks the palette on `page` (one with standings.js loaded) against the page's backgrounds:
// the page, the panels (the chart's) and a seat on the felt.
export async function checkPalette(page) {
  const { colours, backgrounds } = await page.evaluate((teams) => {
    const css = getComputedStyle(document.documentElement);
    return {
      colours: Array.from({ length: teams }, (_, i) => teamColour(i + 1)),
      backgrounds: [css.getPropertyValue('--bg').trim(), css.getPropertyValue('--panel').trim(), '#0e1a14'],
    };
  }, TEAMS);
  check(new Set(colours.map((c) => formatHex(c))).size === TEAMS, `twelve different team colours: ${colours}`);
  const distance = differenceCiede2000();
  let closest = { delta: Infinity };
  for (let a = 0; a < TEAMS; a++) {
    for (let b = a + 1; b < TEAMS; b++) {
      const delta = distance(colours[a], colours[b]);
      if (delta < closest.delta) closest = { delta, pair: [colours[a], colours[b]] };
    }
  }
  check(closest.delta >= MIN_DELTA_E, `every two team colours differ by CIEDE2000 >= ${MIN_DELTA_E}: closest ${closest.pair} at ${closest.delta.toFixed(1)}`);
  for (const background of backgrounds) {
    const weakest = Math.min(...colours.map((c) => wcagContrast(c, background)));
    check(weakest >= MIN_CONTRAST, `every team colour has a contrast >= ${MIN_CONTRAST} on ${background}: the weakest ${weakest.toFixed(2)}`);
  }
  return closest.delta;
}
