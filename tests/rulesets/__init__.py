"""Small rulesets used only by the tests (e.g. ``secret_hand``, a card game with hidden hands)."""
