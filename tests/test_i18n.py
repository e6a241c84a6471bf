"""The message catalogue: same keys and placeholders in es and en."""
import string

from domino.app import helptext
from domino.app import i18n
from domino.engine.rules import PRESETS


def _fields(s):
    return sorted({f for _, f, _, _ in string.Formatter().parse(s) if f})


def test_same_keys():
    assert set(i18n.MESSAGES["es"]) == set(i18n.MESSAGES["en"])


def test_same_placeholders():
    bad = {k: (_fields(v), _fields(i18n.MESSAGES["es"][k]))
           for k, v in i18n.MESSAGES["en"].items() if _fields(v) != _fields(i18n.MESSAGES["es"][k])}
    assert not bad


def test_no_empty_messages():
    for lang in i18n.LANGS:
        assert all(v.strip() for v in i18n.MESSAGES[lang].values()), lang


def test_lang_from_browser():
    assert i18n.lang_from_browser("es-MX") == "es"
    assert i18n.lang_from_browser("ES") == "es"
    assert i18n.lang_from_browser("en-US") == "en"
    assert i18n.lang_from_browser("fr") == "en"
    assert i18n.lang_from_browser(None) == "en"


def test_format():
    assert i18n.t("en", "msg.passes", name="Luis") == "Luis passes"
    assert i18n.t("es", "msg.passes", name="Luis") == "Luis pasa"
    assert i18n.t("xx", "msg.passes", name="Luis") == "Luis passes"


def test_help_for_every_game_in_both_languages():
    for game in PRESETS:
        for lang in ("es", "en"):
            paras = helptext.help_for(game, lang)
            assert len(paras) > len(helptext.COMMON[lang]) + 1, (game, lang)
        assert len(helptext.GAMES[game]["es"]) == len(helptext.GAMES[game]["en"]), game
    assert "never steered" in helptext.help_for("draw", "en")[-1]
    assert "own tiles" in helptext.help_for("draw", "en")[-1]
    assert "nunca se amaña" in helptext.help_for("draw", "es")[-1]
