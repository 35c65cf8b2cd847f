// The npm package as a page loads it, for tests/web/web.test.mjs: bundled by
// tests/run_web_tests.sh (esbuild, an IIFE) and run in headless Chromium, where it decodes the
// golden corpora's inputs; each result goes back to Node as web/json.js's projection.
import * as fvc from "fast-var-codec";
import { toJson } from "../../web/json.js";

globalThis.fvcDecodeAll = (jobs) =>
  jobs.map(({ hex, opts }) => {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    try {
      const { value, size } = fvc.decodeWithSize(bytes, opts);
      // As a JSON text: the deepest values nest further than a structured clone may.
      return { json: JSON.stringify(toJson(value)), size };
    } catch (e) {
      return { error: e.name, godotError: e.godotError, offset: e.offset, message: String(e.message) };
    }
  });
