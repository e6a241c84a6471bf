# Entry point (index.html runs it through PyScript). The app lives in
# domino/browser.py; it sets html[data-ready="1"] once the first screen is interactive.
from domino import browser

browser.start()
