"""Per-feature message catalogues.  Each module here defines ``EN`` and ``ES``
(key -> template) and is merged into ``domino.app.i18n.MESSAGES`` in name
order; a key may be defined only once across the package."""
