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

// A save of 20,000 entities and a 10,000-float heightmap: going to an index deep in a list, then
// an edit, a collapse, an expand and a search there, each the median of 5.
{
  const world = {};
  for (let i = 0; i < 20_000; i++) world[`entity_${i}`] = { id: i, hp: 100, name: `Entity ${i}`, position: new fvc.Vector3(i, 0, -i) };
  const heightmap = Float32Array.from({ length: 10_000 }, (_, i) => (i % 100) / 4);
  const big = path.join(OUT, "bench_20k_entities.sav");
  fs.writeFileSync(big, fvc.writeStoreVarFile([{ world, heightmap }]));
  await page.evaluate(() => (document.body.dataset.state = "empty"));
  await page.setInputFiles("#file", big);
  await state("open");
  // Each action twice: in the page (its events dispatched there, from the first one to the frame
  // after its result: requestAnimationFrame, then a task after the frame; the page's own work, as
  // a user waits for it), and driven by Playwright as a user's keys and clicks (each step a round
  // trip of the driver's protocol, which the figure includes). Each the median of 5.
  const median5 = async (what, f) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const inPage = await f(i);
      times.push(inPage ?? performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`20,000 entities: ${what}: ${Math.round(times[2])} ms (median of 5; ${times.map(Math.round).join(", ")})`);
  };
  // The helpers of the in-page figures, defined in the page once.
  await page.evaluate(() => {
    window.benchFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    window.benchKey = (id, key) => document.getElementById(id).dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    window.benchSearch = (text) => {
      document.getElementById("search").value = text;
      document.getElementById("search-go").click();
    };
  });
  await median5("go to heightmap[9999] (search, then its result), in the page", () =>
    page.evaluate(async () => {
      const t0 = performance.now();
      window.benchSearch("heightmap[9999]");
      document.querySelector("#results button").click();
      await window.benchFrame();
      if (!document.querySelector("#n-0-1-9999[aria-selected=true]")) throw new Error("heightmap[9999] not selected");
      return performance.now() - t0;
    }),
  );
  await median5("change heightmap[9999], in the page", (i) =>
    page.evaluate(async (text) => {
      const t0 = performance.now();
      window.benchKey("n-0-1-9999", "Enter");
      document.getElementById("edit-value").value = text;
      document.getElementById("editor").requestSubmit();
      await window.benchFrame();
      if (!document.getElementById("n-0-1-9999").textContent.includes(`float${text}`)) throw new Error("not changed");
      return performance.now() - t0;
    }, String(i + 11)),
  );
  await median5("collapse and expand the heightmap (two renders), in the page", () =>
    page.evaluate(async () => {
      const t0 = performance.now();
      window.benchKey("n-0-1", "ArrowLeft");
      await window.benchFrame();
      if (document.getElementById("n-0-1").getAttribute("aria-expanded") !== "false") throw new Error("not collapsed");
      window.benchKey("n-0-1", "ArrowRight");
      await window.benchFrame();
      if (document.getElementById("n-0-1").getAttribute("aria-expanded") !== "true") throw new Error("not expanded");
      return performance.now() - t0;
    }),
  );
  await median5("search a value (every key and value walked, the heightmap's items too), in the page", () =>
    page.evaluate(async () => {
      const t0 = performance.now();
      window.benchSearch("Entity 19999");
      await window.benchFrame();
      if (!/1 match/.test(document.getElementById("search-count").textContent)) throw new Error("no match");
      return performance.now() - t0;
    }),
  );
  await median5("go to heightmap[9999] (search, then its result), driven", async () => {
    await page.fill("#search", "heightmap[9999]");
    await page.click("#search-go");
    await page.click("#results button");
    await page.waitForSelector("#n-0-1-9999[aria-selected=true]");
  });
  console.log(`  rows in the tree: ${await page.$$eval("#tree [role=treeitem]", (li) => li.length)}`);
  await median5("change heightmap[9999], driven", async (i) => {
    await page.focus("#n-0-1-9999");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+A");
    await page.keyboard.type(String(i + 1));
    await page.keyboard.press("Enter");
    await page.waitForFunction((t) => document.getElementById("n-0-1-9999").textContent.includes(`float${t}`), String(i + 1));
  });
  await median5("collapse and expand the heightmap (two renders), driven", async () => {
    await page.focus("#n-0-1");
    await page.keyboard.press("ArrowLeft");
    await page.waitForSelector("#n-0-1[aria-expanded=false]");
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector("#n-0-1[aria-expanded=true]");
  });
  await median5("search a value (every key and value walked, the heightmap's items too), driven", async () => {
    await page.fill("#search", "Entity 19999");
    await page.click("#search-go");
    await page.waitForFunction(() => /match/.test(document.getElementById("search-count").textContent));
  });
}
await browser.close();
