// Compile Python modules to .pyc with the browser's own interpreter (the
// vendored Pyodide, run under Node), so the page imports the package without
// compiling it on every boot.  Used by scripts/build_zip.py:
//
//   node scripts/compile_pyc.mjs <pyodide.mjs> <source root> <out dir> <rel.py>...
//
// Writes <out dir>/<rel.py>c for each module: an unchecked-hash .pyc (PEP 552),
// which the import system uses without looking at the source's timestamp
// (unpacking the zip gives every file a new one).  Prints the cache tag.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [, , runtime, src, out, ...files] = process.argv;
const { loadPyodide } = await import(pathToFileURL(path.resolve(runtime)).href);
const py = await loadPyodide();
for (const f of files) {
  py.FS.mkdirTree("/src/" + path.posix.dirname(f));
  py.FS.writeFile("/src/" + f, fs.readFileSync(path.join(src, f)));
}
py.globals.set("FILES", py.toPy(files));
const tag = py.runPython(`
import py_compile, sys
for f in FILES:
    py_compile.compile("/src/" + f, cfile="/out/" + f + "c", dfile=f, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
sys.implementation.cache_tag
`);
for (const f of files) {
  const dest = path.join(out, f + "c");
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, py.FS.readFile("/out/" + f + "c"));
}
process.stdout.write(tag + "\n");
