"""``secret-hand``: a test-only ruleset with secret hands, packaged on its own (``ruleset``: the rules and
who sees what; ``bot``: its bot; ``demo``: its ``dicelog demo``; ``catalogue``: its content)."""
