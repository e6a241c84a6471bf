"""axe-core in a page: ``axe_violations(page)`` lists what it finds.

The axe script comes from the axe-playwright-python wheel (requirements-dev.txt)
and is evaluated through the DevTools protocol (the page's Content-Security-Policy
forbids inline scripts, rightly): nothing is fetched."""
from __future__ import annotations

from pathlib import Path

import axe_playwright_python

AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")


# a button on screen with the browser's own look (an outset border: no class of ours styled it, as a class
# that app.css does not style for buttons, e.g. "warn", leaves it): a player sees a grey box unlike the rest
UNSTYLED = """(sel) => [...(sel ? document.querySelector(sel) : document).querySelectorAll('button')]
    .filter(b => b.getClientRects().length && getComputedStyle(b).borderTopStyle === 'outset')
    .map(b => b.outerHTML.slice(0, 160))"""


def axe_violations(page, selector: str | None = None) -> list[dict]:
    """Violations on the page as it is now (or in ``selector``): [{id, impact, help, nodes}]: axe's, and
    ours: ``unstyled-button``."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;void 0")
    found = page.evaluate("""async (sel) => {
        const r = await axe.run(sel ? document.querySelector(sel) : document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.map(n => n.target.join(' '))}));
    }""", selector)
    unstyled = page.evaluate(UNSTYLED, selector)
    if unstyled:
        found.append({"id": "unstyled-button", "impact": "moderate", "nodes": unstyled,
                      "help": "a button keeps the browser's own look: give it one of the game's button classes"})
    return found
