"""axe-core in a page: ``axe_violations(page)`` lists what it finds.

The axe script comes from the axe-playwright-python wheel (requirements-dev.txt)
and is evaluated through the DevTools protocol (the page's Content-Security-Policy
forbids inline scripts, rightly): nothing is fetched."""
from __future__ import annotations

from pathlib import Path

import axe_playwright_python

AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")


def axe_violations(page, selector: str | None = None) -> list[dict]:
    """Violations on the page as it is now (or in ``selector``): [{id, impact, help, nodes}]."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;void 0")
    return page.evaluate("""async (sel) => {
        const r = await axe.run(sel ? document.querySelector(sel) : document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.map(n => n.target.join(' '))}));
    }""", selector)
