// Transpiles the rules component into a core module and JS glue with jco:
// Workers may not compile wasm at run time, so the component is split into
// what they can import precompiled.
//   node js/transpile.mjs COMPONENT.wasm OUT_DIR
import { transpileBytes } from "@bytecodealliance/jco-transpile";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const [component, outDir] = process.argv.slice(2);
if (!component || !outDir) {
  console.error("usage: node js/transpile.mjs COMPONENT.wasm OUT_DIR");
  process.exit(2);
}
const { files } = await transpileBytes(await readFile(component), {
  name: "cgw_rules",
  instantiation: "sync",
  nodejsCompat: false,
  noTypescript: true,
});
for (const [name, bytes] of Object.entries(files)) {
  const target = path.join(outDir, name);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, bytes);
}
