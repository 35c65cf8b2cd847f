// The web page with a 10 MB save, in headless Chromium (tests/bench_web.sh): how long opening,
// opening the big Dictionary, paging, editing a value, searching and saving take. Figures, not
// checks: docs/performance.md ("The web page") has them.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import * as fvc from "fast-var-codec";

const ROOT = process.env.FVC_ROOT;
const OUT = process.env.FVC_WEB_OUT;
const save = {};
for (let i = 0; i < 36_000; i++) {
  save[`enemy_${i}`] = {
    id: i,
    name: `Enemy number ${i} of the northern woods`,
    hp: new fvc.Float(100),
    position: new fvc.Vector3(i * 0.5, 1, -i),
    tags: ["hostile", "forest", i % 2 ? "day" : "night"],
    drops: Int32Array.from({ length: 8 }, (_, j) => i + j),
  };
}
const bytes = fvc.writeStoreVarFile([{ version: 3, world: save }], { compression: "zstd" });
const plainSize = fvc.writeStoreVarFile([{ version: 3, world: save }]).length;
const file = path.join(OUT, "bench_10mb.sav");
fs.writeFileSync(file, bytes);
console.log(`save: ${(plainSize / 1e6).toFixed(1)} MB of store_var payload, ${(bytes.length / 1e6).toFixed(1)} MB compressed (zstd)`);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ["--no-sandbox"] });
const page = await browser.newPage({ acceptDownloads: true });
await page.goto(pathToFileURL(path.join(ROOT, "dist", "web", "index.html")).href);
const ms = async (what, f) => {
  const t0 = performance.now();
  await f();
  const t = performance.now() - t0;
  console.log(`${what}: ${Math.round(t)} ms`);
  return t;
};
const state = (s) => page.waitForFunction((w) => document.body.dataset.state === w, s, { timeout: 120_000 });
for (let run = 0; run < 3; run++) {
  await page.evaluate(() => (document.body.dataset.state = "empty"));
  await ms(`open (read, decode, first render), run ${run + 1}`, async () => {
    await page.setInputFiles("#file", file);
    await state("open");
  });
  console.log("  " + (await page.textContent("#status")));
}
await page.focus("#n-0");
await page.keyboard.press("ArrowRight");
await page.keyboard.press("ArrowDown");
await page.keyboard.press("ArrowDown");
await ms("open the 36,000-entry Dictionary (first 100 shown)", async () => {
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("#n-0-1-99");
});
await ms("show 100 more", async () => {
  await page.click("#n-0-1-more");
  await page.waitForSelector("#n-0-1-199");
});
await page.focus("#n-0-1-5");
await page.keyboard.press("ArrowRight");
await page.keyboard.press("ArrowDown");
await page.keyboard.press("Enter");
await page.keyboard.press("Control+A");
await page.keyboard.type("7");
await ms("change one int (the 10 MB record encoded again, its ranges located again)", async () => {
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /^Changed/.test(document.getElementById("status").textContent));
});
await page.fill("#search", "enemy_49999");
await ms("search a key (every value walked)", async () => {
  await page.click("#search-go");
  await page.waitForFunction(() => /match/.test(document.getElementById("search-count").textContent));
});
await ms("save (zstd, the whole file written)", async () => {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click("#save-go")]);
  await d.path();
});
await browser.close();
