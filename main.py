# Placeholder entry point, to be replaced by the app (the UI engineer owns it).
# Contract kept by any replacement: set html[data-ready="1"] once the page is usable;
# tests/browser/ and scripts/bench_boot.py wait for it.
from pyscript import document

document.getElementById("app").textContent = "Python ready"
document.documentElement.dataset.ready = "1"
