# Entry point (index.html runs it through PyScript). The app lives in
# domino/browser.py; it sets html[data-ready="1"] once the first screen is interactive.
# Any failure, even importing the package, is shown by static/rescue.js (a
# readable error with "start fresh"), never a frozen loader or a .py-error box.
try:
    from domino import browser
except BaseException as exc:  # noqa: BLE001 - the last line of defence
    import js
    js.window.dominoRescue.show(f"import: {type(exc).__name__}: {str(exc)[:400]}")
else:
    browser.start()
