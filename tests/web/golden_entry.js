// The npm package as a page loads it, for tests/web/web.test.mjs: bundled by
// tests/run_web_tests.sh (esbuild, an IIFE) and run in headless Chromium, where it decodes the
// golden corpora's inputs; each result goes back to Node as the package's JSON projection.
import * as fvc from "fast-var-codec";

globalThis.fvcDecodeAll = (jobs) =>
  jobs.map(({ hex, opts }) => {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    try {
      const { size } = fvc.decodeWithSize(bytes, opts);
      // As a JSON text: the deepest values nest further than a structured clone may.
      // The core's projection of the same bytes (a value typed by a class name no JavaScript
      // value may carry projects from its bytes too): those the value took, as toJSON takes its
      // bytes whole.
      return { json: fvc.toJSON(bytes.subarray(0, size), opts), size };
    } catch (e) {
      return { error: e.name, godotError: e.godotError, offset: e.offset, message: String(e.message) };
    }
  });
